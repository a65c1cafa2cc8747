import Foundation
import LocifyCore

/// Tasks (the domain's `ToDo`), about a contact or no one; a contact's tasks go with it.
enum TasksTable: StoredTable {
    static let name = "tasks"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case title
        case description
        case isCompleted = "is_completed"
        case completedAt = "completed_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "task", revision: .revision, uuid: .uuid)

    /// The columns `task(from:)` reads.
    static let taskColumns = selection(Column.allCases)

    static func task(from row: PlainRow) throws -> ToDo {
        ToDo(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.integer(3),
            fields: ToDoFields(
                title: try row.requiredText(4), description: try row.text(5), isCompleted: try row.requiredBool(6)),
            completedAt: try row.date(7), createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }

    /// The columns a task's `fields` set, with `completed_at` kept from `completedAt` while it stays done.
    static func values(of fields: ToDoFields, completedAt: Date?, now: Date) -> TableWriter<Self>.Values {
        [
            .title: fields.title, .description: fields.description, .isCompleted: fields.isCompleted,
            .completedAt: Timestamp.since(completedAt, holding: fields.isCompleted, now: now), .updatedAt: now,
        ]
    }
}
