import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The read path of reminders (the pattern of `ContactRows`): plain SQL, rows read by position.
enum ReminderRows {
    enum Column: Int, CaseIterable {
        case id, uuid, userID, contactID, title, description, initialDate, frequencyType, frequencyNumber
        case isDelible, doneAt, createdAt, updatedAt

        var name: String {
            switch self {
            case .id: "id"
            case .uuid: "uuid"
            case .userID: "user_id"
            case .contactID: "contact_id"
            case .title: "title"
            case .description: "description"
            case .initialDate: "initial_date"
            case .frequencyType: "frequency_type"
            case .frequencyNumber: "frequency_number"
            case .isDelible: "is_delible"
            case .doneAt: "done_at"
            case .createdAt: "created_at"
            case .updatedAt: "updated_at"
            }
        }
    }

    static let columns = Column.allCases.map(\.name)
    static let columnList = SQLQueryString.columnList(columns)

    struct UnreadableSchedule: Error, CustomStringConvertible {
        let id: Int
        var description: String { "reminder \(id) has a date or frequency that cannot be read" }
    }

    /// The schedule as stored: a `YYYY-MM-DD` date and Monica's frequency fields.
    static func schedule(id: Int, initialDate: String, frequencyType: String, frequencyNumber: Int) throws
        -> ReminderSchedule
    {
        guard let date = CalendarDate(iso8601: initialDate),
            let recurrence = Recurrence(frequencyType: frequencyType, frequencyNumber: frequencyNumber)
        else { throw UnreadableSchedule(id: id) }
        return ReminderSchedule(initialDate: date, recurrence: recurrence)
    }

    static let outlineColumns = [
        "id", "contact_id", "title", "initial_date", "frequency_type", "frequency_number", "is_delible", "done_at",
    ]
    static let outlineColumnList = SQLQueryString.columnList(outlineColumns)

    static func outline(from row: PlainRow) throws -> ReminderOutline {
        let id = try row.requiredInteger(0)
        return ReminderOutline(
            id: id, contactID: try row.requiredInteger(1), title: try row.requiredText(2),
            schedule: try schedule(
                id: id, initialDate: try row.requiredText(3), frequencyType: try row.requiredText(4),
                frequencyNumber: try row.requiredInteger(5)),
            isDelible: try row.requiredBool(6), doneAt: try row.date(7))
    }

    static func reminder(from row: PlainRow) throws -> Reminder {
        func at(_ column: Column) -> Int { column.rawValue }
        let id = try row.requiredInteger(at(.id))
        let schedule = try Self.schedule(
            id: id, initialDate: try row.requiredText(at(.initialDate)),
            frequencyType: try row.requiredText(at(.frequencyType)),
            frequencyNumber: try row.requiredInteger(at(.frequencyNumber)))
        let fields = ReminderFields(
            title: try row.requiredText(at(.title)), description: try row.text(at(.description)), schedule: schedule)
        return Reminder(
            id: id, uuid: try row.requiredUUID(at(.uuid)), ownerID: try row.requiredInteger(at(.userID)),
            contactID: try row.requiredInteger(at(.contactID)), fields: fields,
            isDelible: try row.requiredBool(at(.isDelible)), doneAt: try row.date(at(.doneAt)),
            createdAt: try row.requiredDate(at(.createdAt)),
            updatedAt: try row.requiredDate(at(.updatedAt)))
    }
}
