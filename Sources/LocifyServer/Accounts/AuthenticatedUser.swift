import Foundation
import LocifyCore
import SQLKit
import Vapor

/// The user a request acts for, whether it came with a session cookie or a Bearer token.
struct AuthenticatedUser: Authenticatable, Sendable {
    let id: Int
    let uuid: UUID
    let profile: AccountProfile
    let createdAt: Date
    let updatedAt: Date
    /// Made once per user: a `TimeZone` costs an ICU look-up, and "today" is asked for on every request.
    let timeZone: TimeZone

    init(id: Int, uuid: UUID, profile: AccountProfile, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.profile = profile
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        timeZone = TimeZone(identifier: profile.timezone) ?? .gmt
    }

    /// The user's current day, in their timezone.
    func today(now: Date) -> CalendarDate { CalendarDate(now, in: timeZone) }
}

extension Request {
    /// The signed-in user; routes behind the auth guards can rely on it.
    func requireUser() throws -> AuthenticatedUser {
        guard let user = auth.get(AuthenticatedUser.self) else { throw AppError.unauthenticated }
        return user
    }
}
