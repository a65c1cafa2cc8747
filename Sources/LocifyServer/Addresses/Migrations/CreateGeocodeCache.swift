import Fluent

struct CreateGeocodeCache: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = GeocodeCacheTable.Column
        try await database.schema(GeocodeCacheTable.name)
            .identifier()
            .field(Column.lookupKey, .string, .required)
            .field(Column.found, .bool, .required)
            .field(Column.latitude, .double)
            .field(Column.longitude, .double)
            .field(Column.precision, .string)
            .field(Column.source, .string)
            .field(Column.displayName, .string)
            .field(Column.country, .string)
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.lookupKey)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GeocodeCacheTable.name).delete()
    }
}
