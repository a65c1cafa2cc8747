import Fluent
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
