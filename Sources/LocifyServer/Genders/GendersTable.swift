import Foundation
import LocifyCore

/// Each account's genders; a contact points at one by `gender_id`.
enum GendersTable: StoredTable {
    static let name = "genders"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case name
        case type
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
        /// The record's identity for sync clients (`AddSyncIdentities`).
        case uuid
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "gender", revision: .revision, uuid: .uuid)

    /// The columns `gender(from:)` reads.
    static let genderColumns = selection(Column.allCases)

    static func gender(from row: PlainRow) throws -> StoredGender {
        StoredGender(
            gender: Gender(
                id: try row.requiredInteger(0), name: try row.requiredText(2), type: try row.requiredText(3)),
            ownerID: try row.requiredInteger(1), createdAt: try row.requiredDate(4), updatedAt: try row.requiredDate(5))
    }
}

/// A gender as stored: the Core value and what only its API resource shows.
struct StoredGender: Sendable {
    var gender: Gender
    let ownerID: Int
    let createdAt: Date
    var updatedAt: Date

    var id: Int { gender.id }
    var name: String { gender.name }
    var type: String { gender.type }
}
