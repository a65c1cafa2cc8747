import Foundation
import LocifyCore

/// Reminders about a contact; a reminder goes with its contact.
enum RemindersTable: StoredTable {
    static let name = "reminders"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case title
        case description
        /// A calendar date, `YYYY-MM-DD`: no time, no zone.
        case initialDate = "initial_date"
        case frequencyType = "frequency_type"
        case frequencyNumber = "frequency_number"
        case isDelible = "is_delible"
        case doneAt = "done_at"
        /// `birthday` for the reminder that follows its contact's birthday; NULL for the others.
        case kind
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "reminder", revision: .revision, uuid: .uuid)

    /// The columns `reminder(from:)` reads.
    static let reminderColumns = selection([
        .id, .uuid, .owner, .contact, .title, .description, .initialDate, .frequencyType, .frequencyNumber,
        .isDelible, .doneAt, .createdAt, .updatedAt,
    ])

    static func reminder(from row: PlainRow) throws -> Reminder {
        let id = try row.requiredInteger(0)
        let schedule = try ReminderRows.schedule(
            id: id, initialDate: try row.requiredText(6), frequencyType: try row.requiredText(7),
            frequencyNumber: try row.requiredInteger(8))
        let fields = ReminderFields(title: try row.requiredText(4), description: try row.text(5), schedule: schedule)
        return Reminder(
            id: id, uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), fields: fields, isDelible: try row.requiredBool(9),
            doneAt: try row.date(10), createdAt: try row.requiredDate(11), updatedAt: try row.requiredDate(12))
    }

    /// The columns a reminder's fields set.
    static func values(of fields: ReminderFields, now: Date) -> TableWriter<Self>.Values {
        [
            .title: fields.title, .description: fields.description,
            .initialDate: fields.schedule.initialDate.description,
            .frequencyType: fields.schedule.recurrence.frequencyType,
            .frequencyNumber: fields.schedule.recurrence.frequencyNumber, .updatedAt: now,
        ]
    }
}
