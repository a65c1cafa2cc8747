import Fluent
import Foundation

/// How exact each place's position is (`CoordinatePrecision`): empty for one a person gave, which every place
/// stored before had (typed, picked, or in an imported file); the geocoder's precision for an imported place it
/// could place only by its address.
struct AddPlacePrecision: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlacesTable.name).field(PlacesTable.Column.coordinatePrecision, .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlacesTable.name)
            .deleteField(FieldKey(stringLiteral: PlacesTable.Column.coordinatePrecision.rawValue)).update()
    }
}
