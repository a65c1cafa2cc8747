import FluentKit
import Foundation
import LocifyCore
import NIOCore
import SQLKit
import Vapor

/// The account's calendars in CalDAV: its reminders, its contacts' birthdays (both read-only: they
/// follow the contacts and reminders made in Locify) and its tasks (read and written).
enum DAVCalendar: String, CaseIterable, Sendable {
    case reminders, birthdays, tasks

    var path: SitePath { DAVPaths.calendarHome.appending(rawValue) }
    var objectPath: SitePathWithOne<String> { path.appending(text: .objectName) }

    var displayName: String {
        switch self {
        case .reminders: "Reminders"
        case .birthdays: "Birthdays"
        case .tasks: "Tasks"
        }
    }

    var summary: String {
        switch self {
        case .reminders: "Your reminders in Locify, each with an alert at your notification time"
        case .birthdays: "Your contacts' birthdays in Locify"
        case .tasks: "Your tasks in Locify: tick one done here and it is done there"
        }
    }

    /// The one kind of component the calendar holds.
    var component: String { self == .tasks ? "VTODO" : "VEVENT" }

    var isWritable: Bool { self == .tasks }
}

/// One calendar object: an event or a to-do as one VCALENDAR, its ETag a digest of the text.
struct CalendarObject: Sendable {
    let calendar: DAVCalendar
    let fileName: String
    let text: String
    let etag: String
    /// The task it is, in the Tasks calendar.
    let task: ToDo?

    init(calendar: DAVCalendar, fileName: String, text: String, task: ToDo? = nil) {
        self.calendar = calendar
        self.fileName = fileName
        self.text = text
        self.task = task
        etag = ConditionalRequestsMiddleware.entityTag(of: ByteBuffer(string: text))
    }

    var href: String { calendar.objectPath(fileName).path }
}

/// One of the signed-in account's calendars, read from the records it shows. Its sync token is the
/// account's revision; the Reminders calendar's also names the alert time, whose change is no write of a
/// synced record but changes every event's alarm.
struct CalendarCollection {
    let request: Request
    let ownerID: Int
    let calendar: DAVCalendar

    init(_ request: Request, _ calendar: DAVCalendar) throws {
        self.request = request
        ownerID = try request.requireUser().id
        self.calendar = calendar
    }

    // MARK: Sync tokens

    func logState() async throws -> RevisionLogState {
        try await RevisionLogState.read(for: ownerID, on: request.database)
    }

    static let alarmMarker = ";alarm="

    func token(_ state: RevisionLogState, alarm: Int?) -> String {
        state.token + (alarm.map { Self.alarmMarker + String($0) } ?? "")
    }

    /// The alert time the Reminders calendar's events carry; nil for the other calendars.
    func alarmMinutes() async throws -> Int? {
        guard calendar == .reminders else { return nil }
        return try await request.notificationSettings().preferences().minutesAfterMidnight
    }

    /// What a client's token says: the revision it saw (nil when the log cannot tell what changed since),
    /// and whether every object changed since (the alert time did).
    func revision(ofToken token: String, state: RevisionLogState, alarm: Int?) -> (revision: Int, everything: Bool)? {
        let parts = token.components(separatedBy: Self.alarmMarker)
        guard parts.count <= 2, let revision = state.revision(ofToken: parts[0]) else { return nil }
        let seenAlarm = parts.count == 2 ? Int(parts[1]) : nil
        return (revision, seenAlarm != alarm)
    }

    // MARK: Objects

    func allObjects() async throws -> [CalendarObject] {
        switch calendar {
        case .reminders: try await reminderObjects(try await request.reminders().all())
        case .birthdays: birthdayObjects(try await request.contacts().all())
        case .tasks: try await taskObjects(try await request.tasks().all())
        }
    }

    /// The objects at these file names; a name that is no object of the calendar is left out.
    func objects(named names: [String]) async throws -> [String: CalendarObject] {
        guard !names.isEmpty else { return [:] }
        var byName: [String: CalendarObject] = [:]
        switch calendar {
        case .reminders:
            let ids = try await recordIDs(RemindersTable.self, named: names)
            for object in try await reminderObjects(try await request.reminders().reminders(Array(ids.values))) {
                byName[object.fileName] = object
            }
        case .birthdays:
            let ids = try await recordIDs(ContactsTable.self, named: names)
            let contacts = try await request.contacts().contacts(Array(ids.values))
            for object in birthdayObjects(contacts.values.sorted { $0.id < $1.id }) { byName[object.fileName] = object }
        case .tasks:
            var ids: [String: Int] = [:]
            for row in try await request.database.plainRows(
                """
                SELECT "file_name", "task_id" FROM "dav_tasks" WHERE "user_id" = \(bind: ownerID) \
                AND "task_id" IS NOT NULL AND "file_name" IN (\(binds: names))
                """, columns: ["file_name", "task_id"])
            {
                ids[try row.requiredText(0)] = try row.requiredInteger(1)
            }
            ids.merge(try await recordIDs(TasksTable.self, named: names.filter { ids[$0] == nil })) { first, _ in first
            }
            for object in try await taskObjects(try await request.tasks().all(Array(Set(ids.values)))) {
                byName[object.fileName] = object
            }
        }
        // An object is at its one name only (a task its client named is not also at `<uuid>.ics`).
        return byName.filter { names.contains($0.key) }
    }

    /// The ids of the records of `table` whose uuids these names are (`<uuid>.ics`), by name.
    private func recordIDs<Table: StoredTable>(_ table: Table.Type, named names: [String]) async throws -> [String: Int]
    {
        let uuids = Dictionary(
            names.compactMap { name in DAVPaths.uuid(inObjectName: name).map { (name, $0) } },
            uniquingKeysWith: { first, _ in first })
        guard !uuids.isEmpty else { return [:] }
        let found = try await SyncLocator(table).find(Set(uuids.values), ownedBy: ownerID, on: request.database)
        return uuids.compactMapValues { uuid in
            if case .record(let id, _) = found[uuid] { return id }
            return nil
        }
    }

    /// What a client that has seen everything up to `revision` must fetch again and delete.
    func changes(after revision: Int, everything: Bool) async throws -> (changed: [CalendarObject], deleted: [String]) {
        let owner = ownerID
        func ids(_ sql: SQLQueryString) async throws -> [Int] {
            try await request.database.plainRows(sql, columns: ["id"]).compactMap { try $0.integer(0) }
        }
        func tombstones(_ type: String) async throws -> [UUID] {
            try await request.database.plainRows(
                """
                SELECT "uuid" FROM "sync_tombstones" WHERE "user_id" = \(bind: owner) AND "type" = \(bind: type) \
                AND "revision" > \(bind: revision) AND "uuid" IS NOT NULL ORDER BY "revision", "id"
                """, columns: ["uuid"]
            ).map { try $0.requiredUUID(0) }
        }
        func href(_ uuid: UUID) -> String { calendar.objectPath(uuid.lowercasedText + DAVPaths.objectSuffix).path }
        switch calendar {
        case .reminders:
            let changed =
                everything
                ? try await request.reminders().all()
                : try await request.reminders().reminders(
                    ids(
                        """
                        SELECT "id" FROM "reminders" WHERE "user_id" = \(bind: owner) AND "revision" > \(bind: revision) \
                        UNION SELECT "reminders"."id" FROM "reminders" JOIN "contacts" ON "contacts"."id" = "reminders"."contact_id" \
                        WHERE "reminders"."user_id" = \(bind: owner) AND "contacts"."revision" > \(bind: revision)
                        """))
            let objects = try await reminderObjects(changed)
            return (objects, Self.unseen(try await tombstones("reminder"), besides: changed.map(\.uuid)).map(href))
        case .birthdays:
            let changedIDs = try await ids(
                #"SELECT "id" FROM "contacts" WHERE "user_id" = \#(bind: owner) AND "revision" > \#(bind: revision)"#)
            let contacts = try await request.contacts().contacts(changedIDs).values.sorted { $0.id < $1.id }
            let objects = birthdayObjects(contacts)
            // A birthday taken off its contact is gone from the calendar.
            let withoutBirthday = contacts.filter { $0.fields.birthdate == nil }.map(\.uuid)
            let gone = withoutBirthday + Self.unseen(try await tombstones("contact"), besides: contacts.map(\.uuid))
            return (objects, gone.map(href))
        case .tasks:
            let changed = try await request.tasks().all(
                try await ids(
                    #"SELECT "id" FROM "tasks" WHERE "user_id" = \#(bind: owner) AND "revision" > \#(bind: revision)"#))
            let objects = try await taskObjects(changed)
            let gone = Self.unseen(try await tombstones("task"), besides: changed.map(\.uuid))
            // Each at the file name its client knows it by.
            var names: [UUID: String] = [:]
            if !gone.isEmpty {
                for row in try await request.database.plainRows(
                    """
                    SELECT "task_uuid", "file_name" FROM "dav_tasks" WHERE "user_id" = \(bind: owner) \
                    AND "task_uuid" IN (\(binds: gone))
                    """, columns: ["task_uuid", "file_name"])
                {
                    names[try row.requiredUUID(0)] = try row.requiredText(1)
                }
            }
            return (objects, gone.map { uuid in names[uuid].map { calendar.objectPath($0).path } ?? href(uuid) })
        }
    }

    /// Each deleted uuid once, leaving out those made again (a record restored under its uuid).
    private static func unseen(_ deleted: [UUID], besides present: [UUID]) -> [UUID] {
        var seen = Set(present)
        return deleted.filter { seen.insert($0).inserted }
    }

    // MARK: Writing the objects

    private func reminderObjects(_ reminders: [Reminder]) async throws -> [CalendarObject] {
        guard !reminders.isEmpty else { return [] }
        let contacts = try await request.contacts().contacts(Array(Set(reminders.map(\.contactID))))
        let alarm = try await request.notificationSettings().preferences().minutesAfterMidnight
        return reminders.map { reminder in
            let contact = contacts[reminder.contactID]
            let event = CalendarEvent(
                reminder, of: contact, alarmMinutesAfterMidnight: alarm,
                url: request.absoluteURL(ContactPaths.contact(reminder.contactID)))
            return CalendarObject(
                calendar: .reminders, fileName: reminder.uuid.lowercasedText + DAVPaths.objectSuffix,
                text: ICalendar.object(event, stamp: max(reminder.updatedAt, contact?.updatedAt ?? reminder.updatedAt)))
        }
    }

    private func birthdayObjects(_ contacts: [Contact]) -> [CalendarObject] {
        contacts.compactMap { contact in
            guard let birthdate = contact.fields.birthdate,
                let start = CalendarDate(year: birthdate.year ?? 2000, month: birthdate.month, day: birthdate.day)
            else { return nil }
            // A year known from an age is a guess, not worth saying.
            let born = birthdate.year.flatMap { birthdate.isAgeBased ? nil : "Born in \($0)." }
            let event = CalendarEvent(
                uid: "\(contact.uuid.lowercasedText)-birthday@locify", title: "\(contact.completeName)’s birthday",
                description: born, schedule: ReminderSchedule(initialDate: start, recurrence: .years(1)),
                alarmMinutesAfterMidnight: nil, url: request.absoluteURL(ContactPaths.contact(contact.id)))
            return CalendarObject(
                calendar: .birthdays, fileName: contact.uuid.lowercasedText + DAVPaths.objectSuffix,
                text: ICalendar.object(event, stamp: contact.updatedAt))
        }
    }

    private func taskObjects(_ tasks: [ToDo]) async throws -> [CalendarObject] {
        guard !tasks.isEmpty else { return [] }
        let kept = try await DAVTasksTable.kept(ofTasks: tasks.map(\.id), ownedBy: ownerID, on: request.database)
        return tasks.map { task in
            let keptObject = kept[task.id]
            let written = CalendarTask(
                uid: keptObject?.uid ?? task.uuid.lowercasedText, title: task.fields.title,
                description: task.fields.description, isCompleted: task.fields.isCompleted,
                completedAt: task.completedAt, createdAt: task.createdAt, updatedAt: task.updatedAt,
                url: task.contactID.map { request.absoluteURL(ContactPaths.contact($0)) })
            return CalendarObject(
                calendar: .tasks, fileName: keptObject?.fileName ?? task.uuid.lowercasedText + DAVPaths.objectSuffix,
                text: ICalendar.object(written, stamp: task.updatedAt, keepingFrom: keptObject?.object), task: task)
        }
    }
}
