import Fluent
import Foundation

/// The owner's stars for a place, 1 to 5: empty for every place stored before (none given).
struct AddPlaceRating: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlacesTable.name).field(PlacesTable.Column.rating, .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlacesTable.name)
            .deleteField(FieldKey(stringLiteral: PlacesTable.Column.rating.rawValue)).update()
    }
}
