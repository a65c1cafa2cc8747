import Fluent

struct CreateRelationships: AsyncMigration {
    static let indexes: [(name: String, columns: [RelationshipsTable.Column])] = [
        ("relationships_by_contact", [.contact, .id]),
        ("relationships_by_of_contact", [.ofContact]),
        ("relationships_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(RelationshipsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(
                RelationshipsTable.Column.ofContact, .int, .required,
                .references(ContactsTable.name, "id", onDelete: .cascade)
            )
            .field(RelationshipsTable.Column.type, .int, .required)
            .timestamps()
            .field(RelationshipsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: RelationshipsTable.Column.uuid)
            // One side of one kind between two contacts: the service refuses a second with a message first.
            .unique(on: RelationshipsTable.Column.contact, .ofContact, .type)
            .create()
        try await database.createIndexes(Self.indexes, on: RelationshipsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RelationshipsTable.name).delete()
    }
}
