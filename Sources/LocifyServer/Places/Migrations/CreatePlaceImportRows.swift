import Fluent
import Foundation
import LocifyAPI
import SQLKit

/// An import's report, one row a record, written with each batch: a 100,000-place import's report
/// kept whole in `place_imports.report` was megabytes written in one statement at the end (100–230 ms
/// holding the write lock) and read, decoded and encoded whole on every look at the import. The
/// reports already kept move their rows over; `report` keeps the counts and the unreadable records.
struct CreatePlaceImportRows: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = PlaceImportRowsTable.Column
        try await database.schema(PlaceImportRowsTable.name)
            .field(Column.importID, .int, .required, .references(PlaceImportsTable.name, "id", onDelete: .cascade))
            .field(Column.row, .int, .required)
            .field(Column.name, .string, .required)
            .field(Column.outcome, .string, .required)
            .field(Column.placeID, .int)
            .field(Column.reason, .string)
            .unique(on: Column.importID, .row)
            .create()
        try await database.createIndexes(
            [("place_import_rows_by_outcome", [Column.importID, .outcome, .row])], on: PlaceImportRowsTable.self)
        let kept = try await database.plainRows(
            #"SELECT "id", "report" FROM "place_imports" WHERE "report" IS NOT NULL"#, columns: ["id", "report"])
        for row in kept {
            guard let id = try row.integer(0), let text = try row.text(1),
                let report = try? JSONDecoder().decode(PlaceImportReportResource.self, from: Data(text.utf8))
            else { continue }
            // Plain SQL, as in every data migration (see `MoveContactEmailsToFields`).
            for start in stride(from: 0, to: report.rows.count, by: 500) {
                let values = report.rows[start..<min(start + 500, report.rows.count)].map { row -> SQLQueryString in
                    """
                    (\(literal: id), \(literal: row.row), \(bind: row.name), \(bind: row.outcome), \
                    \(bind: row.placeID), \(bind: row.reason))
                    """
                }
                try await database.sqlDatabase().raw(
                    """
                    INSERT INTO "place_import_rows" ("import_id", "row", "name", "outcome", "place_id", "reason") \
                    VALUES \(values.joined(separator: ", "))
                    """
                ).run()
            }
            try await database.sqlDatabase().raw(
                """
                UPDATE "place_imports" SET "report" = \(bind: try PlaceImportStore.summaryText(of: report)) \
                WHERE "id" = \(literal: id)
                """
            ).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceImportRowsTable.name).delete()
    }
}
