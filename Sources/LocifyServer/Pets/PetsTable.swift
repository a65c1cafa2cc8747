import Foundation
import LocifyCore

/// Contacts' pets; a contact's pets go with it.
enum PetsTable: StoredTable {
    static let name = "pets"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        /// One of `PetCategory.all`'s ids.
        case category = "pet_category_id"
        case name
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "pet", revision: .revision, uuid: .uuid)

    /// The columns `pet(from:)` reads.
    static let petColumns = selection(Column.allCases.filter { $0 != .revision })

    static func pet(from row: PlainRow) throws -> Pet {
        Pet(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: PetFields(
                category: try row.requiredInteger(4, naming: "a pet category", PetCategory.category),
                name: try row.text(5)),
            createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }

    static func values(of fields: PetFields, now: Date) -> TableWriter<Self>.Values {
        [.category: fields.category.id, .name: fields.name, .updatedAt: now]
    }
}
