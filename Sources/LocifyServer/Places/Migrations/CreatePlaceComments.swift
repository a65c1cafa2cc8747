import Fluent

/// Comments on places, each going with its place (and with its author's account).
struct CreatePlaceComments: AsyncMigration {
    static let indexes: [(name: String, columns: [PlaceCommentsTable.Column])] = [
        ("place_comments_by_place", [.place, .createdAt, .id]),
        ("place_comments_list", [.owner, .createdAt, .id]),
        ("place_comments_by_author", [.author]),
        ("place_comments_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = PlaceCommentsTable.Column
        try await database.schema(PlaceCommentsTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Column.place, .int, .required, .references(PlacesTable.name, "id", onDelete: .cascade))
            .field(Column.author, .int, .required, .references(UsersTable.name, "id", onDelete: .cascade))
            .field(Column.body, .string, .required)
            .timestamps()
            .field(Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: PlaceCommentsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceCommentsTable.name).delete()
    }
}
