import Fluent

struct CreateWebSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = WebSessionsTable.Column
        try await database.schema(WebSessionsTable.name)
            .identifier()
            .owner()
            .field(Column.secretDigest, .string, .required)
            .field(Column.createdAt, .datetime, .required)
            .field(Column.expiresAt, .datetime, .required)
            .unique(on: Column.secretDigest)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WebSessionsTable.name).delete()
    }
}
