import FluentKit

/// Which contact a deleted address, field or tag link belonged to: CardDAV's sync answers the cards that
/// changed since a revision, and a card changes when one of them goes.
struct AddTombstoneParents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SyncTombstonesTable.name).field(SyncTombstonesTable.Column.parentID, .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.sqlDatabase().raw(#"ALTER TABLE "sync_tombstones" DROP COLUMN "parent_id""#).run()
    }
}
