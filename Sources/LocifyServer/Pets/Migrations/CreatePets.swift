import Fluent

struct CreatePets: AsyncMigration {
    static let indexes: [(name: String, columns: [PetsTable.Column])] = [
        ("pets_list", [.owner, .id]),
        ("pets_by_contact", [.contact, .id]),
        ("pets_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(PetsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(PetsTable.Column.category, .int, .required)
            .field(PetsTable.Column.name, .string)
            .timestamps()
            .field(PetsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: PetsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: PetsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PetsTable.name).delete()
    }
}
