import Fluent

/// The contacts and places the sample data added to each account (`SampleRecordsTable`).
struct CreateSampleRecords: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = SampleRecordsTable.Column
        try await database.schema(SampleRecordsTable.name)
            .identifier()
            .owner()
            .field(Column.key, .string, .required)
            .contact(required: false)
            .field(Column.placeID, .int, .references(PlacesTable.name, "id", onDelete: .cascade))
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.owner, .key)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SampleRecordsTable.name).delete()
    }
}
