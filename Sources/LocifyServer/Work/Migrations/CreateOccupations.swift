import Fluent

struct CreateOccupations: AsyncMigration {
    static let indexes: [(name: String, columns: [OccupationsTable.Column])] = [
        ("occupations_list", [.owner, .id]),
        ("occupations_by_contact", [.contact, .id]),
        ("occupations_by_company", [.company]),
        ("occupations_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(OccupationsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(
                OccupationsTable.Column.company, .int, .required,
                .references(CompaniesTable.name, "id", onDelete: .cascade)
            )
            .field(OccupationsTable.Column.title, .string, .required)
            .field(OccupationsTable.Column.description, .string)
            .field(OccupationsTable.Column.salary, .int)
            .field(OccupationsTable.Column.salaryUnit, .string)
            .field(OccupationsTable.Column.currentlyWorksHere, .bool, .required)
            .field(OccupationsTable.Column.startDate, .string)
            .field(OccupationsTable.Column.endDate, .string)
            .timestamps()
            .field(OccupationsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: OccupationsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: OccupationsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OccupationsTable.name).delete()
    }
}
