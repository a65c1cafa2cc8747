import Foundation
import LocifyCore

/// A person's tags. `name_key` (`Tag.key(of:)` of the name) is unique per owner, so a name is one tag
/// whatever its case, accents or spacing.
enum TagsTable: StoredTable {
    static let name = "tags"

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

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "tag", revision: .revision, uuid: .uuid, dependents: [SyncedDependent(ContactTagsTable.self, by: .tag)])

    /// The columns `tag(from:at:)` reads.
    static let tagColumns = selection([.id, .owner, .name, .createdAt, .updatedAt])

    /// A tag from a row of `tagColumns`, which start at `first`.
    static func tag(from row: PlainRow, at first: Int = 0) throws -> Tag {
        Tag(
            id: try row.requiredInteger(first), ownerID: try row.requiredInteger(first + 1),
            name: try row.requiredText(first + 2), createdAt: try row.requiredDate(first + 3),
            updatedAt: try row.requiredDate(first + 4))
    }
}
