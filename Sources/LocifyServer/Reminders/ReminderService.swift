import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Reminders of one owner, in the shape of `ContactService`: owner-scoped queries, Core values in and out.
struct ReminderService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    /// Writes the owner's reminders in one revision; inside a contact's write (its birthday) it joins that one.
    private func writingReminders<Result: Sendable>(
        _ body: @escaping @Sendable (TableWriter<RemindersTable>) async throws -> Result
    ) async throws -> Result {
        try await database.write(RemindersTable.self, ownedBy: ownerID, at: dependencies.now(), body)
    }

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// One page of the owner's reminders, of one contact when `contactID` is given.
    func page(
        contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection
    ) async throws -> ([Reminder], PageWindow) {
        try await database.ownedChildPage(
            table: RemindersTable.name, columns: RemindersTable.reminderColumns.names, ownerID: ownerID,
            contactID: contactID, sort: sort,
            page: page,
            read: RemindersTable.reminder(from:))
    }

    /// Every reminder of the owner, whole, for the calendar feed.
    func all() async throws -> [Reminder] {
        try await database.plainRows(
            #"SELECT \#(RemindersTable.reminderColumns.list) FROM "reminders" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: RemindersTable.reminderColumns.names
        ).map(RemindersTable.reminder(from:))
    }

    /// These reminders of the owner's, by id; another account's are left out.
    func reminders(_ ids: [Int]) async throws -> [Reminder] {
        guard !ids.isEmpty else { return [] }
        return try await database.plainRows(
            """
            SELECT \(RemindersTable.reminderColumns.list) FROM "reminders" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids)) ORDER BY "id"
            """, columns: RemindersTable.reminderColumns.names
        ).map(RemindersTable.reminder(from:))
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
            #"SELECT \#(ReminderRows.outlineColumns.list) FROM "reminders" WHERE "user_id" = \#(literal: ownerID)"#,
            columns: ReminderRows.outlineColumns.names
        ).map(ReminderRows.outline(from:))
    }

    /// The outlines of the owner's reminders among `ids`, by id (a timeline's shown items).
    func outlines(_ ids: [Int]) async throws -> [Int: ReminderOutline] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(ReminderRows.outlineColumns.list) FROM "reminders" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
            """, columns: ReminderRows.outlineColumns.names)
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
            SELECT \(RemindersTable.reminderColumns.list) FROM "reminders" WHERE "user_id" = \(literal: ownerID) \
            AND "initial_date" <= \(bind: end.description) \
            AND ("frequency_type" <> 'one_time' OR "initial_date" >= \(bind: start.description)) \
            AND ("frequency_type" <> 'year' OR "frequency_number" <> 1 \
            OR substr("initial_date", 6, 5) BETWEEN \(bind: startMonthDay) AND \(bind: endMonthDay)\(yearClamp)) \
            AND ("frequency_type" <> 'month' OR "frequency_number" <> 1 \
            OR substr("initial_date", 9, 2) BETWEEN \(bind: startDay) AND \(bind: endDay)\(monthClamp))
            """, columns: RemindersTable.reminderColumns.names
        ).map(RemindersTable.reminder(from:))
    }

    /// All of one contact's reminders, for its page.
    func reminders(ofContact contactID: Int) async throws -> [Reminder] {
        try await database.plainRows(
            """
            SELECT \(RemindersTable.reminderColumns.list) FROM "reminders" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) ORDER BY "id"
            """, columns: RemindersTable.reminderColumns.names
        ).map(RemindersTable.reminder(from:))
    }

    func reminder(_ id: Int) async throws -> Reminder {
        guard let reminder = try await reminderIfPresent(id) else { throw AppError.notFound }
        return reminder
    }

    /// The reminder, or nil when the owner has none with this id (deleted since a job was queued).
    func reminderIfPresent(_ id: Int) async throws -> Reminder? {
        let rows = try await database.plainRows(
            """
            SELECT \(RemindersTable.reminderColumns.list) FROM "reminders" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: RemindersTable.reminderColumns.names)
        return try rows.first.map(RemindersTable.reminder(from:))
    }

    /// Creates a reminder for one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found.
    func create(contactID: Int?, _ draft: ReminderDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil)
        async throws -> Reminder
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "reminder", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: RemindersTable.self, ownedBy: ownerID)
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        var values = RemindersTable.values(of: fields, now: now)
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .isDelible: true, .createdAt: now]) { $1 }
        let id = try await writingReminders { [values, ownerID, dependencies] reminders in
            let id = try await reminders.insert(values)
            try await NotificationSettingsService(
                database: reminders.database, ownerID: ownerID, dependencies: dependencies
            ).lookAtTodayAgain(now: now)
            return id
        }
        return Reminder(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, isDelible: true, doneAt: nil,
            createdAt: now, updatedAt: now)
    }

    /// Changes a stored reminder: `change` gets it as a draft and returns the new one; `contactID` moves it
    /// to another of the owner's contacts.
    func update(
        _ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (ReminderDraft) -> ReminderDraft
    ) async throws -> Reminder {
        var updated = try await reminder(id)
        let draft = change(ReminderDraft(updated.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        var values = RemindersTable.values(of: fields, now: now)
        updated.contactID = try await database.contact(movingTo: contactID, from: updated.contactID, ownedBy: ownerID)
        values[.contact] = updated.contactID
        try await writingReminders { [ownerID, values, dependencies] reminders in
            try await reminders.update(id, ownedBy: ownerID, set: values)
            try await NotificationSettingsService(
                database: reminders.database, ownerID: ownerID, dependencies: dependencies
            ).lookAtTodayAgain(now: now)
        }
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    /// Marks a one-time reminder done, so it leaves the timeline; a repeating one comes back and
    /// cannot be done.
    func markDone(_ id: Int) async throws -> Reminder {
        var stored = try await reminder(id)
        guard stored.fields.schedule.recurrence == .once else {
            throw ValidationFailure(
                field: "frequency_type", "Only a one-time reminder can be marked done; a repeating one comes back.",
                reason: .conflict)
        }
        if stored.doneAt == nil {
            let now = dependencies.now()
            try await writingReminders { [ownerID] in try await $0.update(id, ownedBy: ownerID, set: [.doneAt: now]) }
            stored.doneAt = now
        }
        return stored
    }

    func delete(_ id: Int) async throws {
        guard try await reminder(id).isDelible else {
            throw ValidationFailure(
                field: "id", "A birthday reminder goes with the birthday: remove the birthday or its reminder there.",
                reason: .conflict)
        }
        try await writingReminders { [ownerID] in try await $0.delete(id, ownedBy: ownerID) }
    }

    static let birthdayKind = "birthday"
    /// The yearly reminder of the day the owner met the contact (Monica's "add_reminder" of an introduction).
    static let firstMeetingKind = "first_met"

    /// The reminder that follows `contactID`'s birthday, if it has one.
    func birthdayReminder(of contactID: Int) async throws -> Reminder? {
        try await yearlyReminder(Self.birthdayKind, of: contactID)
    }

    /// The reminder that follows the day the owner met `contactID`, if it has one.
    func firstMeetingReminder(of contactID: Int) async throws -> Reminder? {
        try await yearlyReminder(Self.firstMeetingKind, of: contactID)
    }

    /// The contact's reminder of `kind`, if it has one.
    private func yearlyReminder(_ kind: String, of contactID: Int) async throws -> Reminder? {
        try await database.plainRows(
            """
            SELECT \(RemindersTable.reminderColumns.list) FROM "reminders" WHERE "user_id" = \(literal: ownerID) \
            AND "contact_id" = \(literal: contactID) AND "kind" = \(bind: kind)
            """, columns: RemindersTable.reminderColumns.names
        ).first.map(RemindersTable.reminder(from:))
    }

    /// Keeps a contact's birthday reminder in step with its birthday, under the same id: made when `wanted`
    /// is true and there is a birthday, moved when the birthday moves, removed when the birthday is or
    /// when `wanted` is false. nil keeps whatever there is. `hadBirthday`: the contact had a birthday
    /// before this change (false for one made just now).
    func syncBirthday(of contact: Contact, wanted: Bool?, hadBirthday: Bool) async throws {
        try await syncYearly(
            Self.birthdayKind, of: contact.id, fields: Self.yearlyFields(Self.birthdayKind, of: contact),
            wanted: wanted, hadDay: hadBirthday)
    }

    /// `syncBirthday(of:wanted:hadBirthday:)` for the day the owner met the contact; a day worked out from
    /// an age has no reminder (its day is a guess).
    func syncFirstMeeting(of contact: Contact, wanted: Bool?, hadDay: Bool) async throws {
        try await syncYearly(
            Self.firstMeetingKind, of: contact.id, fields: Self.yearlyFields(Self.firstMeetingKind, of: contact),
            wanted: wanted, hadDay: hadDay)
    }

    /// What the contact's yearly reminder of `kind` says and when; nil when the contact has no such day (a
    /// first meeting worked out from an age has none: its day is a guess).
    private static func yearlyFields(_ kind: String, of contact: Contact) -> ReminderFields? {
        switch kind {
        case birthdayKind:
            contact.fields.birthdate.flatMap { ReminderFields.birthday(of: $0, firstName: contact.fields.firstName) }
        case firstMeetingKind:
            contact.introduction.firstMet.flatMap {
                $0.isAgeBased ? nil : ReminderFields.firstMeeting(on: $0, firstName: contact.fields.firstName)
            }
        default: nil
        }
    }

    /// Gives `contact` its yearly reminder of `kind` (its birthday, or the day the owner met them) under
    /// `uuid`, as an import brings back the one it had; nil when the contact has no such day. A contact that
    /// has the reminder already keeps it.
    func makeYearlyReminder(_ kind: String, of contact: Contact, uuid: UUID) async throws -> Int? {
        let fields = Self.yearlyFields(kind, of: contact)
        guard fields != nil else { return nil }
        try await syncYearly(kind, of: contact.id, fields: fields, wanted: true, hadDay: true, uuid: uuid)
        return try await yearlyReminder(kind, of: contact.id)?.id
    }

    /// Keeps the contact's yearly reminder of `kind` as `fields` say (nil: no day to remind of).
    private func syncYearly(
        _ kind: String, of contactID: Int, fields: ReminderFields?, wanted: Bool?, hadDay: Bool, uuid: UUID? = nil
    ) async throws {
        // A reminder follows a day: a contact that had none has none to look for, and one that has none
        // now either needs nothing done.
        let existing = hadDay ? try await yearlyReminder(kind, of: contactID) : nil
        let wants = wanted ?? (existing != nil)
        guard wants, let fields else {
            if let existing {
                try await writingReminders { [ownerID] in try await $0.delete(existing.id, ownedBy: ownerID) }
            }
            return
        }
        let now = dependencies.now()
        guard let existing else {
            var values = RemindersTable.values(of: fields, now: now)
            values.merge([
                .uuid: uuid ?? dependencies.newUUID(), .owner: ownerID, .contact: contactID, .isDelible: false,
                .kind: kind,
                .createdAt: now,
            ]) { $1 }
            try await writingReminders { [values] in try await $0.insert(values) }
            return
        }
        // Saving an unchanged day leaves the reminder as it was, `updated_at` included.
        if existing.fields != fields {
            let values = RemindersTable.values(of: fields, now: now)
            try await writingReminders { [ownerID] in try await $0.update(existing.id, ownedBy: ownerID, set: values) }
        }
    }
}
