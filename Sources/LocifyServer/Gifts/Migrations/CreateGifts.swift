import Fluent

struct CreateGifts: AsyncMigration {
    static let indexes: [(name: String, columns: [GiftsTable.Column])] = [
        ("gifts_list", [.owner, .id]),
        ("gifts_by_contact", [.contact, .id]),
        ("gifts_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(GiftsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(GiftsTable.Column.name, .string, .required)
            .field(GiftsTable.Column.status, .string, .required)
            .field(GiftsTable.Column.comment, .string)
            .field(GiftsTable.Column.url, .string)
            .field(GiftsTable.Column.amountMinor, .int64)
            .field(GiftsTable.Column.currency, .string)
            .field(GiftsTable.Column.date, .string)
            .field(GiftsTable.Column.recipient, .int)
            .timestamps()
            .field(GiftsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: GiftsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: GiftsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GiftsTable.name).delete()
    }
}
