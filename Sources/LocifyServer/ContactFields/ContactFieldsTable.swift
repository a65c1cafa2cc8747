import Foundation
import LocifyCore

/// Contacts' phone numbers, e-mails and social accounts (Monica's contact fields); a field goes with its
/// contact and with its kind.
enum ContactFieldsTable: StoredTable {
    static let name = "contact_fields"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case type = "contact_field_type_id"
        case data
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "contactfield", revision: .revision, uuid: .uuid, parent: .contact)

    /// The columns `field(from:labels:)` reads.
    static let fieldColumns = selection(Column.allCases)

    static func field(from row: PlainRow, labels: [Int: [ContactField.StoredLabel]]) throws -> ContactField {
        let id = try row.requiredInteger(0)
        return ContactField(
            id: id, uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), typeID: try row.requiredInteger(4), data: try row.requiredText(5),
            labels: labels[id] ?? [], createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }
}
