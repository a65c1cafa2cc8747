import Fluent

struct CreateUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = UsersTable.Column
        try await database.schema(UsersTable.name)
            .identifier()
            .uuid()
            .field(Column.email, .string, .required)
            .field(Column.name, .string, .required)
            .field(Column.passwordHash, .string, .required)
            .field(Column.timezone, .string, .required)
            .field(Column.mapsApp, .string, .required)
            .timestamps()
            .unique(on: Column.uuid)
            .unique(on: Column.email)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UsersTable.name).delete()
    }
}
