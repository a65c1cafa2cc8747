import Fluent

struct CreateJournalEntries: AsyncMigration {
    static let indexes: [(name: String, columns: [JournalEntriesTable.Column])] = [
        ("journal_entries_list_by_created", [.owner, .createdAt, .id]),
        ("journal_entries_list_by_updated", [.owner, .updatedAt, .id]),
        ("journal_entries_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(JournalEntriesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(JournalEntriesTable.Column.title, .string, .required)
            .field(JournalEntriesTable.Column.post, .string, .required)
            .timestamps()
            .field(JournalEntriesTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: JournalEntriesTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: JournalEntriesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JournalEntriesTable.name).delete()
    }
}
