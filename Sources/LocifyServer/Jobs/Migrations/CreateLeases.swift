import Fluent

/// Lets the instances on one database agree on which of them runs the periodic work.
struct CreateLeases: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = LeasesTable.Column
        try await database.schema(LeasesTable.name)
            .identifier()
            .field(Column.name, .string, .required)
            .field(Column.holder, .string, .required)
            .field(Column.expiresAt, .datetime, .required)
            .unique(on: Column.name)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LeasesTable.name).delete()
    }
}
