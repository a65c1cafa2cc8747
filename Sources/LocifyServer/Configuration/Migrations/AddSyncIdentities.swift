import FluentKit
import Foundation
import SQLKit

/// What the sync feed needs beyond the revision log: a uuid on every record a client keeps (the tables
/// in `gainingUUID` had none: a client names its creates by uuid, and a tombstone says which record went),
/// each account's horizon (the newest revision whose tombstones were let go), and no revision on
/// `losingRevision` (a contact field's labels, which travel inside their field and change with it).
struct AddSyncIdentities: AsyncMigration {
    let gainingUUID: [any StoredTable.Type]
    let losingRevision: [any StoredTable.Type]

    func prepare(on database: any Database) async throws {
        try await database.schema(UsersTable.name)
            .field(UsersTable.Column.syncHorizon, .int64, .required, .sql(.default(0))).update()
        let sql = try database.sqlDatabase()
        for table in gainingUUID {
            // Written on every insert from now on; SQLite cannot add a NOT NULL column without a default.
            try await database.schema(table.name).field(SharedColumn.uuid, .uuid).update()
            let ids = try await database.plainRows(
                #"SELECT "id" FROM "\#(unsafeRaw: table.name)""#, columns: ["id"]
            ).map { try $0.requiredInteger(0) }
            for id in ids {
                try await sql.raw(
                    #"UPDATE "\#(unsafeRaw: table.name)" SET "uuid" = \#(bind: UUID()) WHERE "id" = \#(bind: id)"#
                ).run()
            }
            // Unique, as in every other synced table: a client's create is found again by its uuid.
            try await sql.create(index: "\(table.name)_uuid").on(table.name).column(SharedColumn.uuid.rawValue).unique()
                .run()
        }
        for table in losingRevision {
            try await sql.raw(#"DROP INDEX IF EXISTS "\#(unsafeRaw: table.name)_revision""#).run()
            try await sql.raw(#"ALTER TABLE "\#(unsafeRaw: table.name)" DROP COLUMN "revision""#).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        for table in losingRevision {
            try await database.schema(table.name)
                .field(SharedColumn.revision, .int64, .required, .sql(.default(0))).update()
            try await database.createIndexes(
                [("\(table.name)_revision", [SharedColumn.owner.rawValue, SharedColumn.revision.rawValue])],
                on: table.name)
        }
        for table in gainingUUID {
            try await sql.raw(#"DROP INDEX IF EXISTS "\#(unsafeRaw: table.name)_uuid""#).run()
            try await sql.raw(#"ALTER TABLE "\#(unsafeRaw: table.name)" DROP COLUMN "uuid""#).run()
        }
        try await sql.raw(#"ALTER TABLE "users" DROP COLUMN "sync_horizon""#).run()
    }
}
