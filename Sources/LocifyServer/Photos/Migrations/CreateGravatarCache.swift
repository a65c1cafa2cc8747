import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Gravatar answers per account and e-mail hash: a picture or "none", each kept 7 days. Per account so a
/// person who turns look-ups off can have theirs deleted.
struct CreateGravatarCache: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = GravatarCacheTable.Column
        try await database.schema(GravatarCacheTable.name)
            .identifier()
            .owner()
            .field(Column.emailHash, .string, .required)
            .field(Column.blob, .int, .references(PhotoBlobsTable.name, "id"))
            .field(Column.mimeType, .string)
            .field(Column.digest, .string)
            .field(Column.fetchedAt, .datetime, .required)
            .unique(on: Column.owner, .emailHash)
            .create()
        try await database.createIndexes([("gravatar_cache_by_age", [Column.fetchedAt])], on: GravatarCacheTable.self)
        try await database.schema(UsersTable.name)
            .field(UsersTable.Column.looksUpGravatar, .bool, .required, .sql(.default(true)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GravatarCacheTable.name).delete()
        try await database.schema(UsersTable.name)
            .deleteField(FieldKey(stringLiteral: UsersTable.Column.looksUpGravatar.rawValue)).update()
    }
}
