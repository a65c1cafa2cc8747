import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit

/// A person's categories of places. `name_key` (the lower-cased name) makes names unique per person
/// whatever their case.
struct CreatePlaceCategories: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = PlaceCategoriesTable.Column
        try await database.schema(PlaceCategoriesTable.name)
            .identifier()
            .owner()
            .field(Column.name, .string, .required)
            .field(Column.nameKey, .string, .required)
            .timestamps()
            .unique(on: Column.owner, .nameKey)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceCategoriesTable.name).delete()
    }
}
