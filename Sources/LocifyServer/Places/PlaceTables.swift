import Fluent
import LocifyCore
import SQLKit

/// A person's categories of places. `name_key` (the lower-cased name) makes names unique per person
/// whatever their case.
struct CreatePlaceCategories: AsyncMigration {
    static let schema = "place_categories"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("name_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "name_key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// Saved places. A category that holds places cannot be deleted without moving them (the service moves
/// them in the same transaction), so the reference has no cascade.
///
/// The distance and map-box filters read `places_by_position` (owner, latitude, longitude): a B-tree on
/// latitude narrows a 10 km search to a band about 20 km high, and the longitude in the same index entry
/// is checked without reading the row. It works alike on SQLite and PostgreSQL, without PostGIS or an
/// R*Tree module, and a person's places (thousands, a hundred thousand at most) make bands small enough.
struct CreatePlaces: AsyncMigration {
    static let schema = "places"
    static let indexes: [(name: String, columns: [String])] = [
        ("places_by_position", ["user_id", "latitude", "longitude"]),
        ("places_by_name", ["user_id", "name_key", "id"]),
        ("places_by_created", ["user_id", "created_at", "id"]),
        ("places_by_category", ["category_id", "name_key", "id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("category_id", .int, .required, .references(CreatePlaceCategories.schema, "id"))
            .field("name", .string, .required)
            .field("name_key", .string, .required)
            .field("address", .string)
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("notes", .string)
            .field("is_favorite", .bool, .required)
            .field("source", .string)
            .field("external_id", .string)
            .field("search_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

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
/// The read path of places and categories: plain SQL, rows read by position.
enum PlaceRows {
    static let categoryColumns = ["id", "user_id", "name", "created_at", "updated_at"]
    static let categoryColumnList = SQLQueryString.columnList(categoryColumns)
    static let placeColumns = [
        "id", "uuid", "user_id", "category_id", "name", "address", "latitude", "longitude", "notes", "is_favorite",
        "source", "external_id", "created_at", "updated_at",
    ]
    static let placeColumnList = SQLQueryString.columnList(placeColumns)
    /// The place columns named with their table, for a query that joins another.
    static let qualifiedPlaceColumnList = SQLQueryString.columnList(placeColumns, of: "places")

    /// The name as sorted: folded, so "éclair" sorts with "eclair" and case does not matter.
    static func nameKey(_ name: String) -> String { TextFolding.searchKey([name]) }

    static func category(from row: PlainRow) throws -> PlaceCategory {
        PlaceCategory(
            id: try row.requiredInteger(0), ownerID: try row.requiredInteger(1), name: try row.requiredText(2),
            createdAt: try row.requiredDate(3), updatedAt: try row.requiredDate(4))
    }

    static func place(from row: PlainRow) throws -> Place {
        let fields = PlaceFields(
            name: try row.requiredText(4), address: try row.text(5),
            coordinate: Coordinate(latitude: try row.requiredDouble(6), longitude: try row.requiredDouble(7)),
            notes: try row.text(8), isFavorite: try row.requiredBool(9), source: try row.text(10),
            externalID: try row.text(11))
        return Place(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            categoryID: try row.requiredInteger(3), fields: fields, createdAt: try row.requiredDate(12),
            updatedAt: try row.requiredDate(13))
    }
}
