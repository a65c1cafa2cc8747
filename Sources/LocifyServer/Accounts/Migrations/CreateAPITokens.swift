import Fluent

struct CreateAPITokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = APITokensTable.Column
        try await database.schema(APITokensTable.name)
            .identifier()
            .owner()
            .field(Column.label, .string, .required)
            .field(Column.secretDigest, .string, .required)
            .field(Column.createdAt, .datetime, .required)
            .field(Column.lastUsedAt, .datetime)
            .field(Column.expiresAt, .datetime)
            .unique(on: Column.secretDigest)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(APITokensTable.name).delete()
    }
}
