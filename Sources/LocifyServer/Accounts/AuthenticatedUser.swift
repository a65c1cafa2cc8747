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

    init(_ model: UserModel) throws {
        self.init(
            id: try model.requireID(), uuid: model.uuid, profile: model.profile, createdAt: model.createdAt,
            updatedAt: model.updatedAt)
    }

    /// The user from the columns of a `users` row, as the sign-in queries select them.
    init(row: some SQLRow) throws {
        let mapsApp = try row.decode(column: "maps_app", as: String.self)
        self.init(
            id: try row.decode(column: "id", as: Int.self), uuid: try row.decode(column: "uuid", as: UUID.self),
            profile: AccountProfile(
                name: try row.decode(column: "name", as: String.self),
                email: try row.decode(column: "email", as: String.self),
                timezone: try row.decode(column: "timezone", as: String.self),
                mapsApp: MapsApp(rawValue: mapsApp) ?? .openStreetMap),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self))
    }

    /// The `users` columns `init(row:)` reads, for queries that call the table `u`.
    static let userColumns = SQLQueryString.columnList(
        ["id", "uuid", "email", "name", "timezone", "maps_app", "created_at", "updated_at"], of: "u")

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
