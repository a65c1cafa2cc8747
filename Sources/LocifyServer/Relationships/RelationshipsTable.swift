import Foundation
import LocifyCore

/// What one contact is to another, one row per side (see `Relationship`); both contacts' rows go with
/// either contact.
enum RelationshipsTable: StoredTable {
    static let name = "relationships"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        /// Monica's `contact_is`: the contact whose relationship this is.
        case contact = "contact_id"
        /// Monica's `of_contact`.
        case ofContact = "of_contact_id"
        /// One of `RelationshipType.all`'s ids.
        case type = "relationship_type_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "relationship", revision: .revision, uuid: .uuid)

    /// The columns `relationship(from:)` reads.
    static let relationshipColumns = selection([
        .id, .uuid, .owner, .contact, .ofContact, .type, .createdAt, .updatedAt,
    ])

    static func relationship(from row: PlainRow) throws -> Relationship {
        Relationship(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), ofContactID: try row.requiredInteger(4),
            type: try row.requiredInteger(5, naming: "a relationship type", RelationshipType.type),
            createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }
}
