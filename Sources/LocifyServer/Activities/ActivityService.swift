import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The owner's activities with who was there. A change of who was there is written in the activity's
/// write and stamps it, so a client keeping activities hears of it.
struct ActivityService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    /// Monica lists a contact's activities by day, newest first, whatever `sort` says.
    static let newestFirst: SQLQueryString = #""happened_on" DESC"#
    private static let columns = ActivitiesTable.activityColumns

    /// One page of the owner's activities, of those `contactID` was at when given, newest day first.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Activity], PageWindow
    ) {
        let attended = contactID.map {
            SQLQueryString(
                #""id" IN (SELECT "activity_id" FROM "activity_contacts" WHERE "contact_id" = \#(literal: $0))"#)
        }
        let (found, window) = try await database.ownedChildPage(
            table: ActivitiesTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: nil,
            matching: attended, sort: sort, leadingOrder: Self.newestFirst, page: page,
            read: ActivitiesTable.activity(from:))
        return (try await withAttendees(found), window)
    }

    func activity(_ id: Int) async throws -> Activity {
        let found = try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: ActivitiesTable.self, selecting: Self.columns,
            read: ActivitiesTable.activity(from:))
        return try await withAttendees([found])[0]
    }

    /// The activities among `ids` the owner has: for the sync feed.
    func activities(_ ids: [Int]) async throws -> [Activity] {
        try await withAttendees(
            try await database.ownedRows(
                ids, ownedBy: ownerID, in: ActivitiesTable.self, selecting: Self.columns,
                read: ActivitiesTable.activity(from:)))
    }

    private func withAttendees(_ activities: [Activity]) async throws -> [Activity] {
        guard !activities.isEmpty else { return [] }
        let rows = try await database.plainRows(
            """
            SELECT "activity_id", "contact_id" FROM "activity_contacts" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: activities.map(\.id), idColumn: "activity_id")) ORDER BY "id"
            """, columns: ["activity_id", "contact_id"])
        var attendees: [Int: [Int]] = [:]
        for row in rows { attendees[try row.requiredInteger(0), default: []].append(try row.requiredInteger(1)) }
        return activities.map { activity in
            var full = activity
            full.fields.attendeeIDs = attendees[activity.id] ?? []
            return full
        }
    }

    /// How many activities the owner had each year, newest year first: Monica's `meta.statistics`.
    /// Counted by the database, a row per year: the day is stored as `YYYY-MM-DD`, so its year is all
    /// but the last six characters.
    func yearlyCounts() async throws -> [(year: Int, count: Int)] {
        let year: SQLQueryString = #"substr("happened_on", 1, length("happened_on") - 6)"#
        let rows = try await database.plainRows(
            """
            SELECT \(year) AS "year", COUNT(*) AS "activities" FROM "activities" \
            WHERE "user_id" = \(literal: ownerID) GROUP BY \(year)
            """, columns: ["year", "activities"])
        var counts: [(year: Int, count: Int)] = []
        for row in rows {
            if let year = Int(try row.requiredText(0)) { counts.append((year, try row.requiredInteger(1))) }
        }
        return counts.sorted { $0.year > $1.year }
    }

    func create(_ draft: ActivityDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws -> Activity {
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        try await requireReferences(fields)
        try await database.requireNewRecord(uuid, in: ActivitiesTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        var values = ActivitiesTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .createdAt: now]) { $1 }
        let id = try await database.write(ActivitiesTable.self, ownedBy: ownerID, at: now) { [ownerID, values] table in
            let id = try await table.insert(values)
            try await Self.replaceAttendees(of: id, with: fields.attendeeIDs, ownerID: ownerID, on: table.database)
            return id
        }
        return Activity(id: id, uuid: uuid, ownerID: ownerID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored activity: `change` gets it as a draft and returns the new one; who was there is
    /// replaced when the draft names others.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (ActivityDraft) -> ActivityDraft) async throws
        -> Activity
    {
        var stored = try await activity(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(ActivityDraft(stored.fields)).validated()
        }
        try await requireReferences(fields)
        let now = dependencies.now()
        let values = ActivitiesTable.values(of: fields, now: now)
        try await database.write(ActivitiesTable.self, ownedBy: ownerID, at: now) { [ownerID, values] table in
            try await table.update(id, ownedBy: ownerID, set: values)
            try await Self.replaceAttendees(of: id, with: fields.attendeeIDs, ownerID: ownerID, on: table.database)
        }
        stored.fields = fields
        stored.updatedAt = now
        return stored
    }

    func delete(_ id: Int) async throws {
        try await database.write(ActivitiesTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] table in
            try await table.delete(id, ownedBy: ownerID)
        }
    }

    /// The type and every contact must be the owner's; another account's is not found.
    private func requireReferences(_ fields: ActivityFields) async throws {
        for contactID in fields.attendeeIDs { _ = try await database.requireContact(contactID, ownedBy: ownerID) }
        if let typeID = fields.typeID {
            _ = try await ActivityTypeService(database: database, ownerID: ownerID, dependencies: dependencies).type(
                typeID)
        }
    }

    private static func replaceAttendees(of id: Int, with contactIDs: [Int], ownerID: Int, on database: any Database)
        async throws
    {
        let attendees = TableWriter(ActivityContactsTable.self, on: database)
        try await attendees.delete(where: #""activity_id" = \#(literal: id)"#)
        for contactID in contactIDs {
            _ = try await attendees.insert([.owner: ownerID, .activity: id, .contact: contactID])
        }
    }
}
