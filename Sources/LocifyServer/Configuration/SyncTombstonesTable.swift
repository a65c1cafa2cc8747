import FluentKit
import Foundation

/// What was deleted, and at which revision, so a client that kept a copy deletes it too. Kept for the
/// retention window; the oldest revision still answerable is the account's horizon.
enum SyncTombstonesTable: StoredTable {
    static let name = "sync_tombstones"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// The deleted row's `SyncedColumns.type` (`contact`, `address`, …).
        case type
        /// Nil for a type whose rows have no uuid.
        case uuid
        case rowID = "row_id"
        case revision
        case deletedAt = "deleted_at"
        /// The contact the deleted row belonged to, for a type a contact's card shows (`SyncedColumns.parent`).
        case parentID = "parent_id"
    }

    /// A deleted row, as its tombstone records it.
    struct Gone: Sendable {
        let id: Int
        let uuid: UUID?
        var parentID: Int? = nil
    }

    /// Most rows one statement records: eight values each stay well under both databases' bind limits.
    static let rowsPerStatement = 1_000

    /// Records `rows` of `type` deleted by the write `revision`.
    static func record(
        _ rows: [Gone], type: String, revision: WriteRevision, on database: any Database
    ) async throws {
        let writer = TableWriter(Self.self, on: database)
        for start in stride(from: 0, to: rows.count, by: rowsPerStatement) {
            let slice = rows[start..<min(start + rowsPerStatement, rows.count)]
            try await writer.insert(
                slice.map { row in
                    [
                        .owner: revision.ownerID, .type: type, .uuid: row.uuid, .rowID: row.id,
                        .revision: revision.number, .deletedAt: revision.at, .parentID: row.parentID,
                    ]
                })
        }
    }
}
