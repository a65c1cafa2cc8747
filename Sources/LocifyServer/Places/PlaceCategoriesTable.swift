import LocifyCore

/// A person's categories of places. `name_key` (the lower-cased name) makes names unique per person
/// whatever their case.
enum PlaceCategoriesTable: StoredTable {
    static let name = "place_categories"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case name
        case nameKey = "name_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
        /// The record's identity for sync clients (`AddSyncIdentities`).
        case uuid
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "category", revision: .revision, uuid: .uuid)

    /// The columns `category(from:)` reads.
    static let categoryColumns = selection([.id, .owner, .name, .createdAt, .updatedAt])

    static func category(from row: PlainRow) throws -> PlaceCategory {
        PlaceCategory(
            id: try row.requiredInteger(0), ownerID: try row.requiredInteger(1), name: try row.requiredText(2),
            createdAt: try row.requiredDate(3), updatedAt: try row.requiredDate(4))
    }
}
