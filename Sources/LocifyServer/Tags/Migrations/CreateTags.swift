import Fluent

/// Tags and the contacts they are on.
struct CreateTags: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TagsTable.name)
            .identifier()
            .owner()
            .field(TagsTable.Column.name, .string, .required)
            .field(TagsTable.Column.nameKey, .string, .required)
            .timestamps()
            .unique(on: TagsTable.Column.owner, .nameKey)
            .create()
        try await database.schema(ContactTagsTable.name)
            .identifier()
            .owner()
            .contact()
            .field(
                ContactTagsTable.Column.tag, .int, .required, .references(TagsTable.name, "id", onDelete: .cascade)
            )
            .field(ContactTagsTable.Column.createdAt, .datetime, .required)
            .unique(on: ContactTagsTable.Column.contact, .tag)
            .create()
        // Listing a tag's contacts; a contact's tags are found through the unique index.
        try await database.createIndexes(
            [("contact_tags_by_tag", [ContactTagsTable.Column.tag, .contact])], on: ContactTagsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ContactTagsTable.name).delete()
        try await database.schema(TagsTable.name).delete()
    }
}
