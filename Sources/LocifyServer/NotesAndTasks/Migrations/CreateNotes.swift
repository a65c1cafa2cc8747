import Fluent

struct CreateNotes: AsyncMigration {
    static let indexes: [(name: String, columns: [NotesTable.Column])] = [
        ("notes_list_by_created", [.owner, .createdAt, .id]),
        ("notes_by_contact", [.contact, .createdAt, .id]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(NotesTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(NotesTable.Column.body, .string, .required)
            .field(NotesTable.Column.isFavorited, .bool, .required)
            .field(NotesTable.Column.favoritedAt, .datetime)
            .timestamps()
            .unique(on: NotesTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: NotesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NotesTable.name).delete()
    }
}
