import Fluent

struct CreateReminders: AsyncMigration {
    static let indexes: [(name: String, columns: [RemindersTable.Column])] = [
        ("reminders_list_by_created", [.owner, .createdAt, .id]),
        ("reminders_list_by_updated", [.owner, .updatedAt, .id]),
        ("reminders_by_contact", [.contact, .id]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = RemindersTable.Column
        try await database.schema(RemindersTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(Column.title, .string, .required)
            .field(Column.description, .string)
            .field(Column.initialDate, .string, .required)
            .field(Column.frequencyType, .string, .required)
            .field(Column.frequencyNumber, .int, .required)
            .field(Column.isDelible, .bool, .required)
            .timestamps()
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: RemindersTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RemindersTable.name).delete()
    }
}
