import FluentKit

/// Finds a tombstone by the uuid a client knows the deleted record by: a push asks it for every
/// mutation that names a record not there (deleted meanwhile, a conflict; or never made, a refusal),
/// which read all of the account's tombstones without it.
struct IndexTombstonesByUUID: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.createIndexes(
            [("sync_tombstones_uuid", [.owner, .type, .uuid])], on: SyncTombstonesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.sqlDatabase().raw(#"DROP INDEX IF EXISTS "sync_tombstones_uuid""#).run()
    }
}
