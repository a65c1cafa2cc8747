import Fluent
import SQLKit

/// Indexes that match the list queries column for column (owner, archived, then the sort), so a page
/// reads its rows in order from the index and the total is counted from the index alone, instead of
/// sorting every contact of the owner for each page.
struct AddContactListIndexes: AsyncMigration {
    static let indexes: [(name: String, columns: [ContactsTable.Column])] = [
        ("contacts_list_by_created", [.owner, .isArchived, .createdAt, .id]),
        ("contacts_list_by_updated", [.owner, .isArchived, .updatedAt, .id]),
        ("contacts_list_by_name", [.owner, .isArchived, .isStarred, .searchKey, .id]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.createIndexes(Self.indexes, on: ContactsTable.self)
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        for index in Self.indexes {
            try await sql.drop(index: index.name).run()
        }
    }
}
