import Foundation
import LocifyCore

/// The owner's groups of activity types, seeded with Monica's four; a category's types go with it.
enum ActivityTypeCategoriesTable: StoredTable {
    static let name = "activity_type_categories"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case name
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "activitytypecategory", revision: .revision, uuid: .uuid,
        dependents: [SyncedDependent(ActivityTypesTable.self, by: .category)])

    static let categoryColumns = selection([.id, .uuid, .owner, .name, .createdAt, .updatedAt])

    static func category(from row: PlainRow) throws -> ActivityTypeCategory {
        ActivityTypeCategory(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            name: try row.requiredText(3), createdAt: try row.requiredDate(4), updatedAt: try row.requiredDate(5))
    }
}

/// The owner's kinds of activity, seeded with Monica's thirteen.
enum ActivityTypesTable: StoredTable {
    static let name = "activity_types"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case category = "activity_type_category_id"
        case name
        case locationType = "location_type"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "activitytype", revision: .revision, uuid: .uuid)

    static let typeColumns = selection(Column.allCases.filter { $0 != .revision })

    static func type(from row: PlainRow) throws -> ActivityType {
        ActivityType(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            categoryID: try row.requiredInteger(3), name: try row.requiredText(4), locationType: try row.text(5),
            createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }
}

/// Things the owner did with contacts.
enum ActivitiesTable: StoredTable {
    static let name = "activities"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        /// One of the owner's activity types; no foreign key: a deleted type reads as none.
        case type = "activity_type_id"
        case summary
        case description
        /// `YYYY-MM-DD`.
        case happenedOn = "happened_on"
        /// Monica's emotion ids, comma-separated (`3,17`).
        case emotions
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`); a change of who was there is one too.
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "activity", revision: .revision, uuid: .uuid)

    static let activityColumns = selection(Column.allCases.filter { $0 != .revision })

    /// The activity without its attendees.
    static func activity(from row: PlainRow) throws -> Activity {
        Activity(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            fields: ActivityFields(
                summary: try row.requiredText(4), description: try row.text(5),
                happenedOn: try row.requiredText(6, naming: "a day", CalendarDate.init(iso8601:)),
                typeID: try row.integer(3),
                emotions: (try row.text(7) ?? "").split(separator: ",").compactMap { Int($0).flatMap(Emotion.emotion) },
                attendeeIDs: []),
            createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }

    static func values(of fields: ActivityFields, now: Date) -> TableWriter<Self>.Values {
        [
            .type: fields.typeID, .summary: fields.summary, .description: fields.description,
            .happenedOn: fields.happenedOn.description,
            .emotions: fields.emotions.map { String($0.id) }.joined(separator: ","), .updatedAt: now,
        ]
    }
}

/// Who was at each activity. The rows travel inside their activity (the sync feed's `activity` carries
/// `attendees`), so changing them is a change of the activity.
enum ActivityContactsTable: StoredTable {
    static let name = "activity_contacts"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case activity = "activity_id"
        case contact = "contact_id"
    }
}

/// The accounts that have had Monica's default activity types made: an account that deletes them all
/// does not get them back.
enum ActivityDefaultsTable: StoredTable {
    static let name = "activity_defaults"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case createdAt = "created_at"
    }
}
