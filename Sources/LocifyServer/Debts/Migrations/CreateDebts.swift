import Fluent

struct CreateDebts: AsyncMigration {
    static let indexes: [(name: String, columns: [DebtsTable.Column])] = [
        ("debts_list", [.owner, .id]),
        ("debts_by_contact", [.contact, .id]),
        ("debts_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(DebtsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(DebtsTable.Column.ownerOwes, .bool, .required)
            .field(DebtsTable.Column.isSettled, .bool, .required)
            .field(DebtsTable.Column.amountMinor, .int64, .required)
            .field(DebtsTable.Column.currency, .string, .required)
            .field(DebtsTable.Column.reason, .string)
            .timestamps()
            .field(DebtsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: DebtsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: DebtsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DebtsTable.name).delete()
    }
}
