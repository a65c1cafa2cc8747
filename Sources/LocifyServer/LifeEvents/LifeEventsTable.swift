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
        LifeEvent(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: LifeEventFields(
                type: try row.requiredInteger(4, naming: "a life event type", LifeEventType.type),
                happenedOn: try row.requiredText(5, naming: "a day", CalendarDate.init(iso8601:)),
                name: try row.text(6), note: try row.text(7)),
            createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }

    static func values(of fields: LifeEventFields, now: Date) -> TableWriter<Self>.Values {
        [
            .type: fields.type.id, .happenedOn: fields.happenedOn.description, .name: fields.name,
            .note: fields.note, .updatedAt: now,
        ]
    }
}
