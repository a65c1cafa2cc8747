import Fluent
import Foundation
import LocifyAPI
import SQLKit

/// Places imports kept between requests: a large file imported in the background, with its progress,
/// and a file previewed on the web and waiting for "Import". The file's bytes are kept until the
/// import is done, then dropped (in `place_import_files` since `MovePlaceImportFiles`).
struct CreatePlaceImports: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = PlaceImportsTable.Column
        try await database.schema(PlaceImportsTable.name)
            .identifier()
            .owner()
            .field(Column.status, .string, .required)
            .field(Column.fileName, .string, .required)
            // Moved to `place_import_files` (`MovePlaceImportFiles`).
            .field("file", .data, .required)
            .field(Column.targetCategoryID, .int)
            .field(Column.stage, .string)
            .field(Column.processed, .int, .required)
            .field(Column.total, .int, .required)
            .field(Column.report, .string)
            .field(Column.error, .string)
            .timestamps()
            .create()
        try await database.createIndexes([("place_imports_by_user", [Column.owner, .id])], on: PlaceImportsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceImportsTable.name).delete()
    }
}
