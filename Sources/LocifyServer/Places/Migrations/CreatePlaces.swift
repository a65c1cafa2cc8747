import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit

/// Saved places. A category that holds places cannot be deleted without moving them (the service moves
/// them in the same transaction), so the reference has no cascade.
///
/// The distance and map-box filters read `places_by_position` (owner, latitude, longitude): a B-tree on
/// latitude narrows a 10 km search to a band about 20 km high, and the longitude in the same index entry
/// is checked without reading the row. It works alike on SQLite and PostgreSQL, without PostGIS or an
/// R*Tree module, and a person's places (thousands, a hundred thousand at most) make bands small enough.
struct CreatePlaces: AsyncMigration {
    static let indexes: [(name: String, columns: [PlacesTable.Column])] = [
        ("places_by_position", [.owner, .latitude, .longitude]),
        ("places_by_name", [.owner, .nameKey, .id]),
        ("places_by_created", [.owner, .createdAt, .id]),
        ("places_by_category", [.category, .nameKey, .id]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = PlacesTable.Column
        try await database.schema(PlacesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Column.category, .int, .required, .references(PlaceCategoriesTable.name, "id"))
            .field(Column.name, .string, .required)
            .field(Column.nameKey, .string, .required)
            .field(Column.address, .string)
            .field(Column.latitude, .double, .required)
            .field(Column.longitude, .double, .required)
            .field(Column.notes, .string)
            .field(Column.isFavorite, .bool, .required)
            .field(Column.source, .string)
            .field(Column.externalID, .string)
            .field(Column.searchKey, .string, .required)
            .timestamps()
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: PlacesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlacesTable.name).delete()
    }
}
