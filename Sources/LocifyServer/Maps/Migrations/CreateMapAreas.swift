import FluentKit

struct CreateMapAreas: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = MapAreasTable.Column
        try await database.schema(MapAreasTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Column.name, .string, .required)
            .field(Column.south, .double, .required)
            .field(Column.west, .double, .required)
            .field(Column.north, .double, .required)
            .field(Column.east, .double, .required)
            .field(Column.maximumZoom, .int, .required)
            .field(Column.source, .string, .required)
            .field(Column.byteCount, .int64)
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.uuid)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MapAreasTable.name).delete()
    }
}
