import FluentKit

/// What a client's recent pushes refused, so a push sent again after a lost answer hears the refusals
/// again instead of `duplicate` (which would read as saved).
struct AddSyncClientRefusals: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SyncClientsTable.name)
            .field(SyncClientsTable.Column.refusals, .string, .required, .sql(.default("[]"))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.sqlDatabase().raw(#"ALTER TABLE "sync_clients" DROP COLUMN "refusals""#).run()
    }
}
