import FluentKit
import Foundation
import LocifyCore

/// The people with an account. Every other table holds its owner's `user_id`, and an account's rows go
/// with it.
enum UsersTable: StoredTable {
    static let name = "users"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case email
        case name
        case passwordHash = "password_hash"
        case timezone
        case mapsApp = "maps_app"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The person's own choice; the server's `LOCIFY_GRAVATAR` may still forbid it.
        case looksUpGravatar = "looks_up_gravatar"
        /// The account's revision counter: the latest revision its writes took (`RevisionCounter`).
        case revision
        /// The newest revision whose tombstones were let go: a sync cursor before it is too old.
        case syncHorizon = "sync_horizon"
        /// The contact that is the person themselves (Monica's "me" contact); its foreign key forgets it.
        case meContact = "me_contact_id"
    }

    /// The columns `user(from:at:)` reads.
    static let userColumns = selection([.id, .uuid, .email, .name, .timezone, .mapsApp, .createdAt, .updatedAt])

    /// A user from a row of `userColumns`, which start at `first`.
    static func user(from row: PlainRow, at first: Int = 0) throws -> AuthenticatedUser {
        AuthenticatedUser(
            id: try row.requiredInteger(first), uuid: try row.requiredUUID(first + 1),
            profile: AccountProfile(
                name: try row.requiredText(first + 3), email: try row.requiredText(first + 2),
                timezone: try row.requiredText(first + 4),
                mapsApp: MapsApp(rawValue: try row.requiredText(first + 5)) ?? .openStreetMap),
            createdAt: try row.requiredDate(first + 6), updatedAt: try row.requiredDate(first + 7))
    }

    /// The columns a profile sets.
    static func values(of profile: AccountProfile) -> TableWriter<Self>.Values {
        [.email: profile.email, .name: profile.name, .timezone: profile.timezone, .mapsApp: profile.mapsApp.rawValue]
    }
}

extension Database {
    /// The user `id`, or nil.
    func user(_ id: Int) async throws -> AuthenticatedUser? {
        try await plainRows(
            #"SELECT \#(UsersTable.userColumns.list) FROM "users" WHERE "id" = \#(literal: id)"#,
            columns: UsersTable.userColumns.names
        ).first.map { try UsersTable.user(from: $0) }
    }
}
