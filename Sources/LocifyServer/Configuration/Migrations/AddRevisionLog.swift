import FluentKit

/// The revision log sync reads: each account's counter, a revision on every row of `tables` (the synced
/// ones as this migration was written; a table made later has the column from its own migration), and
/// the tombstones of deleted rows.
struct AddRevisionLog: AsyncMigration {
    let tables: [any StoredTable.Type]

    func prepare(on database: any Database) async throws {
        try await database.schema(UsersTable.name)
            .field(UsersTable.Column.revision, .int64, .required, .sql(.default(0))).update()
        for table in tables {
            try await database.schema(table.name)
                .field(SharedColumn.revision, .int64, .required, .sql(.default(0))).update()
            // A pull reads an account's rows after a revision.
            try await database.createIndexes(
                [("\(table.name)_revision", [SharedColumn.owner.rawValue, SharedColumn.revision.rawValue])],
                on: table.name)
        }
        try await database.schema(SyncTombstonesTable.name)
            .identifier()
            .owner()
            .field(SyncTombstonesTable.Column.type, .string, .required)
            .field(SyncTombstonesTable.Column.uuid, .uuid)
            .field(SyncTombstonesTable.Column.rowID, .int, .required)
            .field(SyncTombstonesTable.Column.revision, .int64, .required)
            .field(SyncTombstonesTable.Column.deletedAt, .datetime, .required)
            .create()
        try await database.createIndexes(
            [("sync_tombstones_revision", [.owner, .revision]), ("sync_tombstones_deleted_at", [.deletedAt])],
            on: SyncTombstonesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SyncTombstonesTable.name).delete()
        let sql = try database.sqlDatabase()
        for table in tables {
            try await sql.raw(#"DROP INDEX IF EXISTS "\#(unsafeRaw: table.name)_revision""#).run()
            try await sql.raw(#"ALTER TABLE "\#(unsafeRaw: table.name)" DROP COLUMN "revision""#).run()
        }
        try await sql.raw(#"ALTER TABLE "users" DROP COLUMN "revision""#).run()
    }
}
