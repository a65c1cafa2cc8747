import Fluent

/// One-time reminders can be marked done.
struct AddReminderDone: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RemindersTable.name).field(RemindersTable.Column.doneAt, .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RemindersTable.name).deleteField(.string(RemindersTable.Column.doneAt.rawValue))
            .update()
    }
}
