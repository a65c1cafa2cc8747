import Foundation
import LocifyCore

/// Notes about a person; a note goes with its contact.
enum NotesTable: StoredTable {
    static let name = "notes"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case body
        case isFavorited = "is_favorited"
        case favoritedAt = "favorited_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "note", revision: .revision, uuid: .uuid)

    /// The columns `note(from:)` reads.
    static let noteColumns = selection(Column.allCases)

    static func note(from row: PlainRow) throws -> Note {
        Note(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: NoteFields(body: try row.requiredText(4), isFavorited: try row.requiredBool(5)),
            favoritedAt: try row.date(6), createdAt: try row.requiredDate(7), updatedAt: try row.requiredDate(8))
    }

    /// The columns a note's `fields` set, with `favorited_at` kept from `favoritedAt` while it stays a
    /// favourite.
    static func values(of fields: NoteFields, favoritedAt: Date?, now: Date) -> TableWriter<Self>.Values {
        [
            .body: fields.body, .isFavorited: fields.isFavorited,
            .favoritedAt: Timestamp.since(favoritedAt, holding: fields.isFavorited, now: now), .updatedAt: now,
        ]
    }
}
