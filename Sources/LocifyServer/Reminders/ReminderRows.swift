import Fluent
import Foundation
import LocifyCore
import SQLKit

/// What the timeline and the calendar read of reminders: their outlines and packed placements, and the
/// schedule as stored.
enum ReminderRows {
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

    static let outlineColumns = RemindersTable.selection([
        .id, .contact, .title, .initialDate, .frequencyType, .frequencyNumber, .isDelible, .doneAt,
    ])

    static func outline(from row: PlainRow) throws -> ReminderOutline {
        let id = try row.requiredInteger(0)
        return ReminderOutline(
            id: id, contactID: try row.requiredInteger(1), title: try row.requiredText(2),
            schedule: try schedule(
                id: id, initialDate: try row.requiredText(3), frequencyType: try row.requiredText(4),
                frequencyNumber: try row.requiredInteger(5)),
            isDelible: try row.requiredBool(6), doneAt: try row.date(7))
    }

    /// Every reminder of `ownerID` as one text, `id,contact_id,initial_date,frequency_type,frequency_number,done`
    /// per reminder (done is 1 or 0), reminders parted by ";"; NULL when there are none.
    static func packedPlacements(ownerID: Int, dialect: String) -> SQLQueryString {
        // One format() a row: a chain of || had SQLite copy the growing text at each step.
        let aggregate: SQLQueryString = dialect == "postgresql" ? "string_agg" : "group_concat"
        return """
            SELECT \(aggregate)(format('%s,%s,%s,%s,%s,%s', "id", "contact_id", "initial_date", "frequency_type", \
            "frequency_number", CASE WHEN "done_at" IS NULL THEN 0 ELSE 1 END), ';') AS "placements" \
            FROM "reminders" WHERE "user_id" = \(literal: ownerID)
            """
    }

    struct UnreadablePlacement: Error, CustomStringConvertible {
        let record: String
        var description: String { "a reminder's packed placement cannot be read: \(record)" }
    }

    /// The placements `packedPlacements` wrote, read in one pass over the bytes: splitting the text into
    /// arrays of fields cost more than the database took to write it.
    static func placements(fromPacked text: String) throws -> [ReminderPlacement] {
        var text = text
        return try text.withUTF8 { bytes in
            var placements: [ReminderPlacement] = []
            placements.reserveCapacity(bytes.count / 32)
            var index = 0
            /// The bytes up to `separator` (or the end), moving past it.
            func field(endingWith separator: UInt8) -> Range<Int> {
                let start = index
                while index < bytes.count, bytes[index] != separator { index += 1 }
                defer { index += 1 }
                return start..<index
            }
            func integer(_ range: Range<Int>) -> Int? {
                guard !range.isEmpty, range.count <= 18 else { return nil }
                var value = 0
                for position in range {
                    let digit = Int(bytes[position]) &- 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            let comma = UInt8(ascii: ",")
            while index < bytes.count {
                let recordStart = index
                let id = integer(field(endingWith: comma))
                let contactID = integer(field(endingWith: comma))
                let date = field(endingWith: comma)
                let type = field(endingWith: comma)
                let number = integer(field(endingWith: comma))
                let done = field(endingWith: UInt8(ascii: ";"))
                let isDone = done.count == 1 ? bytes[done.lowerBound] : nil
                guard let id, let contactID, let number, isDone == UInt8(ascii: "0") || isDone == UInt8(ascii: "1")
                else {
                    throw UnreadablePlacement(record: string(recordStart..<min(index, bytes.count)))
                }
                let schedule = try schedule(
                    id: id, initialDate: string(date), frequencyType: string(type), frequencyNumber: number)
                placements.append(
                    ReminderPlacement(
                        id: id, contactID: contactID, schedule: schedule, isDone: isDone == UInt8(ascii: "1")))
            }
            return placements
        }
    }
}
