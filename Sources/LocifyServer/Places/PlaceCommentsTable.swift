import Foundation
import LocifyCore

/// Comments on places. A comment is the place owner's record (`user_id`: it syncs in their feed and goes
/// with the place) and names its author (`author_id`), who alone changes it.
enum PlaceCommentsTable: StoredTable {
    static let name = "place_comments"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case place = "place_id"
        case author = "author_id"
        case body
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "place_comment", revision: .revision, uuid: .uuid)

    /// The columns `comment(from:)` reads.
    static let commentColumns = selection([.id, .uuid, .owner, .place, .author, .body, .createdAt, .updatedAt])

    static func comment(from row: PlainRow) throws -> PlaceComment {
        PlaceComment(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            placeID: try row.requiredInteger(3), authorID: try row.requiredInteger(4), body: try row.requiredText(5),
            createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }
}
