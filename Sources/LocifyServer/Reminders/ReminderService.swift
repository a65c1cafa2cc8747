import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Reminders of one owner, in the shape of `ContactService`: owner-scoped queries, Core values in and out.
struct ReminderService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// One page of the owner's reminders, of one contact when `contactID` is given.
    func page(
        contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection
    ) async throws -> ([Reminder], PageWindow) {
        try await database.ownedChildPage(
            table: "reminders", columns: ReminderRows.columns, ownerID: ownerID, contactID: contactID, sort: sort,
            page: page,
            read: ReminderRows.reminder(from:))
    }

    /// Every reminder of the owner, whole, for the calendar feed.
    func all() async throws -> [Reminder] {
        try await database.plainRows(
            #"SELECT \#(ReminderRows.columnList) FROM "reminders" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: ReminderRows.columns
        ).map(ReminderRows.reminder(from:))
    }

    /// How many reminders fall on `day`, for the navigation's count: only the schedule columns are read.
    func dueCount(on day: CalendarDate) async throws -> Int {
        let columns = ["id", "initial_date", "frequency_type", "frequency_number"]
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)) FROM "reminders" \
            WHERE "user_id" = \(literal: ownerID) AND "initial_date" <= \(bind: day.description) \
            AND ("frequency_type" <> 'one_time' OR ("initial_date" = \(bind: day.description) AND "done_at" IS NULL))
            """, columns: columns)
        var count = 0
        for row in rows {
            let schedule = try ReminderRows.schedule(
                id: try row.requiredInteger(0), initialDate: try row.requiredText(1),
                frequencyType: try row.requiredText(2), frequencyNumber: try row.requiredInteger(3))
            if schedule.nextOccurrence(onOrAfter: day) == day { count += 1 }
        }
        return count
    }

    /// Every reminder of the owner in outline, for timelines and notifications.
    func outlines() async throws -> [ReminderOutline] {
        try await database.plainRows(
            #"SELECT \#(ReminderRows.outlineColumnList) FROM "reminders" WHERE "user_id" = \#(literal: ownerID)"#,
            columns: ReminderRows.outlineColumns
        ).map(ReminderRows.outline(from:))
    }

    /// The outlines of the owner's reminders among `ids`, by id (a timeline's shown items).
    func outlines(_ ids: [Int]) async throws -> [Int: ReminderOutline] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(ReminderRows.outlineColumnList) FROM "reminders" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
            """, columns: ReminderRows.outlineColumns)
        return Dictionary(uniqueKeysWithValues: try rows.map(ReminderRows.outline(from:)).map { ($0.id, $0) })
    }

    /// Where each of the owner's reminders falls, for the API's timeline: read as one packed text
    /// (`ReminderRows.packedPlacements`), as ten thousand rows cost the driver more than their values.
    func placements() async throws -> [ReminderPlacement] {
        let sql = try database.sqlDatabase()
        let rows = try await database.plainRows(
            ReminderRows.packedPlacements(ownerID: ownerID, dialect: sql.dialect.name), columns: ["placements"])
        guard let packed = try rows.first?.text(0) else { return [] }
        return try ReminderRows.placements(fromPacked: packed)
    }

    /// The owner's reminders that can fall within `range`, a span of one month: repeating ones that have
    /// started by its end, one-time ones inside it, and of the yearly and monthly ones only those whose day
    /// is in it (or clamped into it). The SQL only narrows; `ReminderSchedule` decides. (Reading outlines
    /// first and then only the reminders that occur measured slower: the long id list cost more.)
    func reminders(occurringIn range: ClosedRange<CalendarDate>) async throws -> [Reminder] {
        let start = range.lowerBound
        let end = range.upperBound
        func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let startDay = twoDigits(start.day)
        let endDay = twoDigits(end.day)
        // A day past the month's end falls on its last day, and a 29 February on the 28th in common years.
        let monthClamp: SQLQueryString =
            end == end.lastDayOfMonth ? #" OR substr("initial_date", 9, 2) > \#(bind: endDay)"# : ""
        let yearClamp: SQLQueryString = start.month == 2 ? #" OR substr("initial_date", 6, 5) = '02-29'"# : ""
        let startMonthDay = twoDigits(start.month) + "-" + startDay
        let endMonthDay = twoDigits(end.month) + "-" + endDay
        return try await database.plainRows(
            """
            SELECT \(ReminderRows.columnList) FROM "reminders" WHERE "user_id" = \(literal: ownerID) \
            AND "initial_date" <= \(bind: end.description) \
            AND ("frequency_type" <> 'one_time' OR "initial_date" >= \(bind: start.description)) \
            AND ("frequency_type" <> 'year' OR "frequency_number" <> 1 \
            OR substr("initial_date", 6, 5) BETWEEN \(bind: startMonthDay) AND \(bind: endMonthDay)\(yearClamp)) \
            AND ("frequency_type" <> 'month' OR "frequency_number" <> 1 \
            OR substr("initial_date", 9, 2) BETWEEN \(bind: startDay) AND \(bind: endDay)\(monthClamp))
            """, columns: ReminderRows.columns
        ).map(ReminderRows.reminder(from:))
    }

    /// All of one contact's reminders, for its page.
    func reminders(ofContact contactID: Int) async throws -> [Reminder] {
        try await database.plainRows(
            """
            SELECT \(ReminderRows.columnList) FROM "reminders" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) ORDER BY "id"
            """, columns: ReminderRows.columns
        ).map(ReminderRows.reminder(from:))
    }

    func reminder(_ id: Int) async throws -> Reminder {
        guard let reminder = try await reminderIfPresent(id) else { throw AppError.notFound }
        return reminder
    }

    /// The reminder, or nil when the owner has none with this id (deleted since a job was queued).
    func reminderIfPresent(_ id: Int) async throws -> Reminder? {
        let rows = try await database.plainRows(
            """
            SELECT \(ReminderRows.columnList) FROM "reminders" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: ReminderRows.columns)
        return try rows.first.map(ReminderRows.reminder(from:))
    }

    /// Creates a reminder for one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found.
    func create(contactID: Int?, _ draft: ReminderDraft, typeErrors: [FieldError] = []) async throws -> Reminder {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "reminder", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        let now = dependencies.now()
        let model = ReminderModel(
            ownerID: ownerID, contactID: contactID, uuid: dependencies.newUUID(), isDelible: true, now: now)
        model.apply(fields, now: now)
        try await model.save(on: database)
        return try model.value()
    }

    /// Changes a stored reminder: `change` gets it as a draft and returns the new one; `contactID` moves it
    /// to another of the owner's contacts.
    func update(
        _ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (ReminderDraft) -> ReminderDraft
    ) async throws -> Reminder {
        let model = try await ReminderModel.requireOwned(id, by: ownerID, on: database)
        let draft = change(ReminderDraft(try model.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        if let contactID, contactID != model.$contact.id {
            _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
            model.$contact.id = contactID
        }
        model.apply(fields, now: dependencies.now())
        try await model.save(on: database)
        return try model.value()
    }

    /// Marks a one-time reminder done, so it leaves the timeline; a repeating one comes back and
    /// cannot be done.
    func markDone(_ id: Int) async throws -> Reminder {
        let model = try await ReminderModel.requireOwned(id, by: ownerID, on: database)
        guard model.frequencyType == Recurrence.once.frequencyType else {
            throw ValidationFailure(
                field: "frequency_type", "Only a one-time reminder can be marked done; a repeating one comes back.",
                reason: .conflict)
        }
        if model.doneAt == nil {
            model.doneAt = dependencies.now()
            try await model.save(on: database)
        }
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        let model = try await ReminderModel.requireOwned(id, by: ownerID, on: database)
        guard model.isDelible else {
            throw ValidationFailure(
                field: "id", "A birthday reminder goes with the birthday: remove the birthday or its reminder there.",
                reason: .conflict)
        }
        try await model.delete(on: database)
    }

    static let birthdayKind = "birthday"

    /// The reminder that follows `contactID`'s birthday, if it has one.
    func birthdayReminder(of contactID: Int) async throws -> ReminderModel? {
        try await ReminderModel.owned(by: ownerID, on: database).filter(\.$contact.$id == contactID)
            .filter(\.$kind == Self.birthdayKind).first()
    }

    /// Keeps a contact's birthday reminder in step with its birthday, under the same id: made when `wanted`
    /// is true and there is a birthday, moved when the birthday moves, removed when the birthday is or
    /// when `wanted` is false. nil keeps whatever there is.
    func syncBirthday(of contact: Contact, wanted: Bool?) async throws {
        let existing = try await birthdayReminder(of: contact.id)
        let wants = wanted ?? (existing != nil)
        guard wants, let birthdate = contact.fields.birthdate,
            let fields = ReminderFields.birthday(of: birthdate, firstName: contact.fields.firstName)
        else {
            try await existing?.delete(on: database)
            return
        }
        let now = dependencies.now()
        let model =
            existing
            ?? ReminderModel(
                ownerID: ownerID, contactID: contact.id, uuid: dependencies.newUUID(), isDelible: false, now: now)
        model.kind = Self.birthdayKind
        // Saving an unchanged birthday leaves the reminder as it was, `updated_at` included.
        if try existing?.fields != fields { model.apply(fields, now: now) }
        try await model.save(on: database)
    }
}
