import Fluent

/// Birthday reminders are told apart from the others, so they can follow the birthday.
struct AddReminderKind: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RemindersTable.name).field(RemindersTable.Column.kind, .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RemindersTable.name).deleteField(.string(RemindersTable.Column.kind.rawValue))
            .update()
    }
}
