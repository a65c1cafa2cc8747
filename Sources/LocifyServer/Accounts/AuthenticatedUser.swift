import Foundation
import LocifyCore
import Vapor

/// The user a request acts for, whether it came with a session cookie or a Bearer token.
struct AuthenticatedUser: Authenticatable, Sendable {
    let id: Int
    let uuid: UUID
    let profile: AccountProfile
    let createdAt: Date
    let updatedAt: Date

    init(_ model: UserModel) throws {
        id = try model.requireID()
        uuid = model.uuid
        profile = model.profile
        createdAt = model.createdAt
        updatedAt = model.updatedAt
    }

    var timeZone: TimeZone { TimeZone(identifier: profile.timezone) ?? .gmt }

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
