import Foundation
import LocifyCore

/// The account's journal entries.
enum JournalEntriesTable: StoredTable {
    static let name = "journal_entries"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case title
        case post
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "entry", revision: .revision, uuid: .uuid)

    /// The columns `entry(from:)` reads.
    static let entryColumns = selection(Column.allCases)

    static func entry(from row: PlainRow) throws -> JournalEntry {
        JournalEntry(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            fields: JournalEntryFields(title: try row.requiredText(3), post: try row.requiredText(4)),
            createdAt: try row.requiredDate(5), updatedAt: try row.requiredDate(6))
    }

    static func values(of fields: JournalEntryFields, now: Date) -> TableWriter<Self>.Values {
        [.title: fields.title, .post: fields.post, .updatedAt: now]
    }
}
