import Foundation
import LocifyCore

/// Each account's kinds of contact field (Monica's contact field types): E-mail, Phone, Twitter….
enum ContactFieldTypesTable: StoredTable {
    static let name = "contact_field_types"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case name
        case icon = "fontawesome_icon"
        case linkProtocol = "protocol"
        case isDelible = "delible"
        case type
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "contactfieldtype", revision: .revision, uuid: .uuid,
        dependents: [SyncedDependent(ContactFieldsTable.self, by: .type)])

    /// The columns `type(from:)` reads.
    static let typeColumns = selection(Column.allCases)

    static func type(from row: PlainRow) throws -> ContactFieldType {
        ContactFieldType(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            name: try row.requiredText(3), icon: try row.text(4), linkProtocol: try row.text(5),
            isDelible: try row.requiredBool(6), type: try row.text(7), createdAt: try row.requiredDate(8),
            updatedAt: try row.requiredDate(9))
    }
}
