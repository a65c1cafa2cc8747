import Fluent
import Foundation
import LocifyAPI
import SQLKit

/// An import's file, in a table of its own: SQLite writes a row whole, so every progress note on an
/// import whose row held its file wrote the file again, megabytes twice a second holding the write lock
/// (40–170 ms each for a 5 MB file, measured alone). Files still waiting move over; done and failed
/// imports had dropped theirs.
struct MovePlaceImportFiles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = PlaceImportFilesTable.Column
        try await database.schema(PlaceImportFilesTable.name)
            .field(Column.importID, .int, .identifier(auto: false))
            .foreignKey(
                FieldKey(stringLiteral: Column.importID.rawValue), references: PlaceImportsTable.name, "id",
                onDelete: .cascade
            )
            .field(Column.file, .data, .required)
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
        try await database.schema(PlaceImportFilesTable.name).delete()
    }
}
