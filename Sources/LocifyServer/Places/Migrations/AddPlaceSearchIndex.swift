import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit

/// Makes the `q` filter (a piece of text anywhere in a place's folded name, notes and address) an index
/// look-up instead of a scan of every place the person has: a LIKE '%…%' can use no B-tree.
///
/// - SQLite: an FTS5 table with the trigram tokenizer, kept in step with `places` by triggers. Each
///   document is the owner's mark (`\u{2}<user id>\u{3}`, characters no search holds) and the place's
///   `search_key`, so one question finds one person's matches, and counts them, without reading a row
///   of `places` (contentless: the text is not stored twice). A search of three characters or more asks
///   it, and the rows it names are checked with the same LIKE; shorter ones scan, as they match most
///   places anyway.
/// - PostgreSQL: a GIN index with `pg_trgm`'s trigram operators, which the planner uses for the LIKE as it
///   is. `pg_trgm` ships with PostgreSQL and is a trusted extension (PostgreSQL 13+), so the database's
///   owner may create it; where it cannot be created the search still works, by scanning, and the server
///   says so in its log.
struct AddPlaceSearchIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        if sql.dialect.name == "postgresql" {
            do {
                try await sql.raw("CREATE EXTENSION IF NOT EXISTS pg_trgm").run()
            } catch {
                database.logger.warning(
                    "pg_trgm could not be created (\(String(reflecting: error))); searching places will scan them")
                return
            }
            try await sql.raw(
                #"CREATE INDEX "places_by_search_key" ON "places" USING gin ("search_key" gin_trgm_ops)"#
            ).run()
            return
        }
        let document = #"char(2) || "user_id" || char(3) || "search_key""#
        let newDocument = document.replacingOccurrences(of: #""user_id""#, with: #"new."user_id""#)
            .replacingOccurrences(of: #""search_key""#, with: #"new."search_key""#)
        for statement in [
            #"CREATE VIRTUAL TABLE "places_search" USING fts5("document", tokenize='trigram', content='', contentless_delete=1)"#,
            #"CREATE TRIGGER "places_search_insert" AFTER INSERT ON "places" BEGIN INSERT INTO "places_search" (rowid, "document") VALUES (new."id", \#(newDocument)); END"#,
            #"CREATE TRIGGER "places_search_delete" AFTER DELETE ON "places" BEGIN DELETE FROM "places_search" WHERE rowid = old."id"; END"#,
            #"CREATE TRIGGER "places_search_update" AFTER UPDATE OF "search_key", "user_id" ON "places" BEGIN DELETE FROM "places_search" WHERE rowid = old."id"; INSERT INTO "places_search" (rowid, "document") VALUES (new."id", \#(newDocument)); END"#,
            #"INSERT INTO "places_search" (rowid, "document") SELECT "id", \#(document) FROM "places""#,
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        if sql.dialect.name == "postgresql" {
            try await sql.raw(#"DROP INDEX IF EXISTS "places_by_search_key""#).run()
            return
        }
        for statement in [
            #"DROP TRIGGER IF EXISTS "places_search_insert""#, #"DROP TRIGGER IF EXISTS "places_search_delete""#,
            #"DROP TRIGGER IF EXISTS "places_search_update""#, #"DROP TABLE IF EXISTS "places_search""#,
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }
}
