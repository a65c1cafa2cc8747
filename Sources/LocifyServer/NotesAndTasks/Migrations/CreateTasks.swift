import Fluent

struct CreateTasks: AsyncMigration {
    static let indexes: [(name: String, columns: [TasksTable.Column])] = [
        ("tasks_list_by_created", [.owner, .createdAt, .id]),
        ("tasks_by_contact", [.contact, .id]),
        ("tasks_open", [.owner, .isCompleted, .createdAt]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(TasksTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact(required: false)
            .field(TasksTable.Column.title, .string, .required)
            .field(TasksTable.Column.description, .string)
            .field(TasksTable.Column.isCompleted, .bool, .required)
            .field(TasksTable.Column.completedAt, .datetime)
            .timestamps()
            .unique(on: TasksTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: TasksTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TasksTable.name).delete()
    }
}
