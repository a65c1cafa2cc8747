import Fluent

struct CreateLoginFailures: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = LoginFailuresTable.Column
        try await database.schema(LoginFailuresTable.name)
            .identifier()
            .field(Column.throttleKey, .string, .required)
            .field(Column.failedAt, .datetime, .required)
            .create()
        try await database.createIndexes(
            [
                ("login_failures_by_key", [Column.throttleKey, .failedAt]),
                ("login_failures_by_age", [Column.failedAt]),
            ], on: LoginFailuresTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LoginFailuresTable.name).delete()
    }
}
