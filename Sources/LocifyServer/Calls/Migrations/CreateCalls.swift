import Fluent

struct CreateCalls: AsyncMigration {
    static let indexes: [(name: String, columns: [CallsTable.Column])] = [
        ("calls_list_by_called", [.owner, .calledAt, .id]),
        ("calls_by_contact", [.contact, .calledAt]),
        ("calls_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(CallsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(CallsTable.Column.calledAt, .datetime, .required)
            .field(CallsTable.Column.content, .string)
            .field(CallsTable.Column.contactCalled, .bool, .required)
            .field(CallsTable.Column.emotions, .string, .required)
            .timestamps()
            .field(CallsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: CallsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: CallsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CallsTable.name).delete()
    }
}
