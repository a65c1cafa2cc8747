import Fluent

struct CreateCompanies: AsyncMigration {
    static let indexes: [(name: String, columns: [CompaniesTable.Column])] = [
        ("companies_list", [.owner, .id]),
        ("companies_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(CompaniesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(CompaniesTable.Column.name, .string, .required)
            .field(CompaniesTable.Column.website, .string)
            .field(CompaniesTable.Column.numberOfEmployees, .int)
            .timestamps()
            .field(CompaniesTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: CompaniesTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: CompaniesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CompaniesTable.name).delete()
    }
}
