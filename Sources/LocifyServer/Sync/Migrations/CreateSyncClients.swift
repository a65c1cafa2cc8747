import FluentKit

struct CreateSyncClients: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = SyncClientsTable.Column
        try await database.schema(SyncClientsTable.name)
            .identifier()
            .owner()
            .field(Column.clientID, .string, .required)
            .field(Column.lastMutationID, .int64, .required)
            .field(Column.pushes, .int64, .required)
            .field(Column.firstSeenAt, .datetime, .required)
            .field(Column.lastSeenAt, .datetime, .required)
            .unique(on: Column.owner, Column.clientID)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SyncClientsTable.name).delete()
    }
}
