import Fluent
import Foundation
import LocifyAPI
import SQLKit

/// Places imports kept between requests: a large file imported in the background, with its progress,
/// and a file previewed on the web and waiting for "Import". The file's bytes are kept until the
/// import is done, then dropped (in `place_import_files` since `MovePlaceImportFiles`).
struct CreatePlaceImports: AsyncMigration {
    static let schema = "place_imports"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("status", .string, .required)
            .field("file_name", .string, .required)
            .field("file", .data, .required)
            .field("target_category_id", .int)
            .field("stage", .string)
            .field("processed", .int, .required)
            .field("total", .int, .required)
            .field("report", .string)
            .field("error", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.createIndexes([("place_imports_by_user", ["user_id", "id"])], on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// An import's file, in a table of its own: SQLite writes a row whole, so every progress note on an
/// import whose row held its file wrote the file again, megabytes twice a second holding the write lock
/// (40–170 ms each for a 5 MB file, measured alone). Files still waiting move over; done and failed
/// imports had dropped theirs.
struct MovePlaceImportFiles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("place_import_files")
            .field("import_id", .int, .identifier(auto: false))
            .foreignKey("import_id", references: CreatePlaceImports.schema, "id", onDelete: .cascade)
            .field("file", .data, .required)
            .create()
        let sql = try database.sqlDatabase()
        try await sql.raw(
            """
            INSERT INTO "place_import_files" ("import_id", "file") SELECT "id", "file" FROM "place_imports"             WHERE "status" IN ('previewed', 'queued', 'running')
            """
        ).run()
        try await sql.raw(#"ALTER TABLE "place_imports" DROP COLUMN "file""#).run()
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        let column: SQLQueryString =
            sql.dialect.name == "postgresql" ? "BYTEA NOT NULL DEFAULT ''" : "BLOB NOT NULL DEFAULT X''"
        try await sql.raw(#"ALTER TABLE "place_imports" ADD COLUMN "file" \#(column)"#).run()
        try await sql.raw(
            """
            UPDATE "place_imports" SET "file" = (SELECT "file" FROM "place_import_files"             WHERE "import_id" = "place_imports"."id") WHERE "id" IN (SELECT "import_id" FROM "place_import_files")
            """
        ).run()
        try await database.schema("place_import_files").delete()
    }
}

/// An import's report, one row a record, written with each batch: a 100,000-place import's report
/// kept whole in `place_imports.report` was megabytes written in one statement at the end (100–230 ms
/// holding the write lock) and read, decoded and encoded whole on every look at the import. The
/// reports already kept move their rows over; `report` keeps the counts and the unreadable records.
struct CreatePlaceImportRows: AsyncMigration {
    static let schema = "place_import_rows"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("import_id", .int, .required, .references(CreatePlaceImports.schema, "id", onDelete: .cascade))
            .field("row", .int, .required)
            .field("name", .string, .required)
            .field("outcome", .string, .required)
            .field("place_id", .int)
            .field("reason", .string)
            .unique(on: "import_id", "row")
            .create()
        try await database.createIndexes(
            [("place_import_rows_by_outcome", ["import_id", "outcome", "row"])], on: Self.schema)
        let kept = try await database.plainRows(
            #"SELECT "id", "report" FROM "place_imports" WHERE "report" IS NOT NULL"#, columns: ["id", "report"])
        for row in kept {
            guard let id = try row.integer(0), let text = try row.text(1),
                let report = try? JSONDecoder().decode(PlaceImportReportResource.self, from: Data(text.utf8))
            else { continue }
            try await PlaceImportStore.insert(report.rows, of: id, on: database)
            try await database.sqlDatabase().raw(
                """
                UPDATE "place_imports" SET "report" = \(bind: try PlaceImportStore.summaryText(of: report)) \
                WHERE "id" = \(literal: id)
                """
            ).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}
