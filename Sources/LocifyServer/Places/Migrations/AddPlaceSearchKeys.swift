import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit

/// On PostgreSQL the trigram index moves from `places` to a narrow table of each place's owner and
/// `search_key`, kept in step by a trigger (a deleted place takes its row with it). A LIKE is lossy for
/// a trigram index, so PostgreSQL reads every candidate row to check it: counting a word 5,000 places
/// share read 2,500 pages of `places`, wide with names, notes and addresses, and took 3.8 ms; the narrow
/// table's rows fill a third as many pages. SQLite keeps its FTS table (see AddPlaceSearchIndex).
struct AddPlaceSearchKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        guard sql.dialect.name == "postgresql" else { return }
        let trigrams = try await sql.raw("SELECT 1 AS \"found\" FROM pg_extension WHERE extname = 'pg_trgm'").all()
        for statement in [
            #"DROP INDEX IF EXISTS "places_by_search_key""#,
            """
            CREATE TABLE "place_search_keys" ("place_id" INTEGER PRIMARY KEY REFERENCES "places" ("id") \
            ON DELETE CASCADE, "user_id" INTEGER NOT NULL, "search_key" TEXT NOT NULL)
            """,
            #"INSERT INTO "place_search_keys" SELECT "id", "user_id", "search_key" FROM "places""#,
            """
            CREATE FUNCTION "locify_place_search_keys"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            IF TG_OP = 'INSERT' THEN \
            INSERT INTO "place_search_keys" VALUES (NEW."id", NEW."user_id", NEW."search_key"); \
            ELSE UPDATE "place_search_keys" SET "user_id" = NEW."user_id", "search_key" = NEW."search_key" \
            WHERE "place_id" = NEW."id"; END IF; RETURN NULL; END $$
            """,
            """
            CREATE TRIGGER "places_search_keys" AFTER INSERT OR UPDATE OF "search_key", "user_id" ON "places" \
            FOR EACH ROW EXECUTE FUNCTION "locify_place_search_keys"()
            """,
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        // Without pg_trgm (see AddPlaceSearchIndex) the narrow table is still the cheaper one to scan.
        if !trigrams.isEmpty {
            try await sql.raw(
                #"CREATE INDEX "place_search_keys_by_text" ON "place_search_keys" USING gin ("search_key" gin_trgm_ops)"#
            ).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        guard sql.dialect.name == "postgresql" else { return }
        for statement in [
            #"DROP TRIGGER IF EXISTS "places_search_keys" ON "places""#,
            #"DROP FUNCTION IF EXISTS "locify_place_search_keys"()"#, #"DROP TABLE IF EXISTS "place_search_keys""#,
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        let trigrams = try await sql.raw("SELECT 1 AS \"found\" FROM pg_extension WHERE extname = 'pg_trgm'").all()
        if !trigrams.isEmpty {
            try await sql.raw(
                #"CREATE INDEX "places_by_search_key" ON "places" USING gin ("search_key" gin_trgm_ops)"#
            ).run()
        }
    }
}
