import Foundation
import LocifyAPI

/// Which tags are on which contacts; the `id` keeps the order tags were put on a contact.
enum ContactTagsTable: StoredTable {
    static let name = "contact_tags"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case contact = "contact_id"
        case tag = "tag_id"
        case createdAt = "created_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
        /// The record's identity for sync clients (`AddSyncIdentities`).
        case uuid
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "contact_tag", revision: .revision, uuid: .uuid, parent: .contact)

    /// The columns `link(from:)` reads.
    static let linkColumns = selection([.id, .uuid, .contact, .tag, .owner, .createdAt])

    static func link(from row: PlainRow) throws -> ContactTagResource {
        ContactTagResource(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), contactID: try row.requiredInteger(2),
            tagID: try row.requiredInteger(3), ownerID: try row.requiredInteger(4), createdAt: try row.requiredDate(5))
    }
}
