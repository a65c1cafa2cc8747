import Foundation
import LocifyCore

/// Things that happened in contacts' lives; a contact's life events go with it.
enum LifeEventsTable: StoredTable {
    static let name = "life_events"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        /// One of `LifeEventType.all`'s ids.
        case type = "life_event_type_id"
        /// `YYYY-MM-DD`.
        case happenedOn = "happened_on"
        case name
        case note
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "lifeevent", revision: .revision, uuid: .uuid)

    /// The columns `lifeEvent(from:)` reads.
    static let lifeEventColumns = selection(Column.allCases.filter { $0 != .revision })

    static func lifeEvent(from row: PlainRow) throws -> LifeEvent {
        let typeID = try row.requiredInteger(4)
        let dayText = try row.requiredText(5)
        guard let type = LifeEventType.type(typeID), let day = CalendarDate(iso8601: dayText) else {
            throw UnreadableLifeEvent(typeID: typeID, day: dayText)
        }
        return LifeEvent(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: LifeEventFields(type: type, happenedOn: day, name: try row.text(6), note: try row.text(7)),
            createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }

    static func values(of fields: LifeEventFields, now: Date) -> TableWriter<Self>.Values {
        [
            .type: fields.type.id, .happenedOn: fields.happenedOn.description, .name: fields.name,
            .note: fields.note, .updatedAt: now,
        ]
    }
}

/// A stored type or day no version of Locify writes.
struct UnreadableLifeEvent: Error, CustomStringConvertible {
    let typeID: Int
    let day: String
    var description: String { "life event type \(typeID) or day \(day) is not one Locify writes" }
}
