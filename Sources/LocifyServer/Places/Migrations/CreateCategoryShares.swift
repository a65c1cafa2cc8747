import Fluent

/// Shared categories and their public links.
struct CreateCategoryShares: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Share = CategorySharesTable.Column
        try await database.schema(CategorySharesTable.name)
            .identifier()
            .field(Share.category, .int, .required, .references(PlaceCategoriesTable.name, "id", onDelete: .cascade))
            .owner()
            .field(Share.member, .int, .required, .references(UsersTable.name, "id", onDelete: .cascade))
            .field(Share.canEdit, .bool, .required)
            .timestamps()
            .unique(on: Share.category, Share.member)
            .create()
        try await database.createIndexes(
            [("category_shares_by_member", [.member]), ("category_shares_by_owner", [.owner])],
            on: CategorySharesTable.self)
        typealias Link = CategoryLinksTable.Column
        try await database.schema(CategoryLinksTable.name)
            .identifier()
            .field(Link.category, .int, .required, .references(PlaceCategoriesTable.name, "id", onDelete: .cascade))
            .owner()
            .field(Link.token, .string, .required)
            .field(Link.createdAt, .datetime, .required)
            .unique(on: Link.category)
            .unique(on: Link.token)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CategoryLinksTable.name).delete()
        try await database.schema(CategorySharesTable.name).delete()
    }
}
