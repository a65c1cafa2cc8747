import Fluent
import SQLKit

/// Indexes that match the list queries column for column (owner, archived, then the sort), so a page
/// reads its rows in order from the index and the total is counted from the index alone, instead of
/// sorting every contact of the owner for each page.
struct AddContactListIndexes: AsyncMigration {
    static let indexes: [(name: String, columns: [String])] = [
        ("contacts_list_by_created", ["user_id", "is_archived", "created_at", "id"]),
        ("contacts_list_by_updated", ["user_id", "is_archived", "updated_at", "id"]),
        ("contacts_list_by_name", ["user_id", "is_archived", "is_starred", "search_key", "id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.createIndexes(Self.indexes, on: ContactModel.schema)
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        for index in Self.indexes {
            try await sql.drop(index: index.name).run()
        }
    }
}
