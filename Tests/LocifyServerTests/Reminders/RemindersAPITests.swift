import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The reminder routes; the test clock's today is 2024-05-04 (UTC).
final class RemindersAPITests: XCTestCase {
    private func reminder(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/reminders",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> ReminderResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<ReminderResource>.self, file: file, line: line).data
    }

    func testARemindersShapeAndItsNextDateFromMonthEnds() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let response = try await app.send(
                .POST, "/api/reminders", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "title": "Pay the rent", "initial_date": "2024-01-31", "frequency_type": "month"}"#
            )
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data"]),
                [
                    "id", "uuid", "object", "title", "description", "frequency_type", "frequency_number",
                    "initial_date",
                    "delible", "account", "contact", "created_at", "updated_at", "contact_id", "next_expected_date",
                ])
            let created = try response.decoded(DataEnvelope<ReminderResource>.self).data
            XCTAssertEqual(created.object, "reminder")
            XCTAssertEqual(created.frequencyNumber, 1, "1 when left out")
            XCTAssertEqual(created.initialDate, "2024-01-31T00:00:00Z")
            XCTAssertEqual(
                created.nextExpectedDate, "2024-05-31T00:00:00Z", "Jan 31 monthly: Feb 29, Mar 31, Apr 30, May 31")
            XCTAssertTrue(created.delible)
            XCTAssertEqual(created.contactID, ada.id)
            XCTAssertEqual(created.contact.completeName, "Ada Lovelace")
            XCTAssertNil(created.description)

            let past = try await reminder(
                app, account,
                #"{"title": "Visa", "initial_date": "2020-01-01T09:30:00+02:00", "frequency_type": "one_time"}"#,
                path: "/api/contacts/\(ada.id)/reminders")
            XCTAssertEqual(past.initialDate, "2020-01-01T00:00:00Z", "a date-time's date is kept")
            XCTAssertEqual(past.nextExpectedDate, "2020-01-01T00:00:00Z", "a past one-time reminder keeps its date")
            let leap = try await reminder(
                app, account,
                #"{"contact_id": "\#(ada.id)", "title": "Leap day", "initial_date": "2024-02-29", "frequency_type": "year", "frequency_number": "1"}"#
            )
            XCTAssertEqual(leap.nextExpectedDate, "2025-02-28T00:00:00Z", "Feb 29 yearly: Feb 28 in common years")

            let renamed = try await app.send(
                .PUT, "/api/reminders/\(created.id)", headers: account.bearer, json: #"{"title": "Pay rent"}"#)
            let afterRename = try renamed.decoded(DataEnvelope<ReminderResource>.self).data
            XCTAssertEqual(afterRename.title, "Pay rent")
            XCTAssertEqual(afterRename.initialDate, created.initialDate, "left out, kept")
            XCTAssertEqual(afterRename.frequencyType, "month")

            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            _ = try await reminder(
                app, account,
                #"{"contact_id": \#(grace.id), "title": "Call", "initial_date": "2024-05-01", "frequency_type": "week", "frequency_number": 2}"#
            )
            let ofGrace = try await app.send(.GET, "/api/reminders?contact_id=\(grace.id)", headers: account.bearer)
            XCTAssertEqual(try ofGrace.decoded(PageResource<ReminderResource>.self).data.map(\.title), ["Call"])
            let ofAda = try await app.send(
                .GET, "/api/contacts/\(ada.id)/reminders?sort=-created_at", headers: account.bearer)
            XCTAssertEqual(try ofAda.decoded(PageResource<ReminderResource>.self).meta.total, 3)
            // Each contact counts its reminders, alone and in a list.
            let single = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try single.decoded(DataEnvelope<ContactResource>.self).data.statistics.numberOfReminders, 3)
            let list = try await app.send(.GET, "/api/contacts?sort=created_at", headers: account.bearer)
            XCTAssertEqual(
                try list.decoded(PageResource<ContactResource>.self).data.map(\.statistics.numberOfReminders), [3, 1])
        }
    }

    /// Occurrences by the plain rule, written here apart from Locify's code: the k-th is the start plus k·N
    /// months (or 7·N·k days), its day cut down to the month's last day.
    private func referenceOccurrences(
        start: (year: Int, month: Int, day: Int), type: String, every: Int, through end: DateComponents
    ) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let last = calendar.date(from: end)!
        var result: [String] = []
        for k in 0..<2000 {
            let date: Date
            switch type {
            case "week":
                let first = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day))!
                date = calendar.date(byAdding: .day, value: 7 * every * k, to: first)!
            default:
                let months = (type == "year" ? 12 : 1) * every * k + (start.month - 1)
                let year = start.year + months / 12
                let month = months % 12 + 1
                let firstOfMonth = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
                let length = calendar.range(of: .day, in: .month, for: firstOfMonth)!.count
                date = calendar.date(from: DateComponents(year: year, month: month, day: min(start.day, length)))!
            }
            if date > last { break }
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            result.append(String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))
            if type == "one_time" { break }
        }
        return result
    }

    func testFiveYearsOfMonthsMatchAReferenceAcrossLeapYearsAndMonthEnds() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let starts = [
                (2024, 1, 28), (2024, 1, 29), (2024, 1, 30), (2024, 1, 31), (2024, 2, 29), (2023, 3, 31),
                (2023, 12, 31), (2024, 5, 4), (2024, 5, 20), (2020, 2, 29), (2024, 8, 31),
            ]
            let kinds = [
                ("month", 1), ("month", 2), ("year", 1), ("year", 4), ("week", 1), ("week", 3), ("one_time", 1),
            ]
            var expected: [String] = []
            // Today is 2024-05-04: month 0 runs from today, months 1…59 reach April 2029, past 29 February 2028.
            let end = DateComponents(year: 2029, month: 4, day: 30)
            for start in starts {
                for (type, every) in kinds {
                    let created = try await reminder(
                        app, account,
                        #"{"contact_id": \#(ada.id), "title": "T", "initial_date": "\#(String(format: "%04d-%02d-%02d", start.0, start.1, start.2))", "frequency_type": "\#(type)", "frequency_number": \#(every)}"#
                    )
                    expected += referenceOccurrences(
                        start: (start.0, start.1, start.2), type: type, every: every, through: end
                    ).filter { $0 >= "2024-05-04" }.map { "\($0) \(created.id)" }
                }
            }
            var listed: [String] = []
            for month in 0..<60 {
                let response = try await app.send(.GET, "/api/reminders/upcoming/\(month)", headers: account.bearer)
                listed += try response.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data.map {
                    "\($0.plannedDate.prefix(10)) \($0.reminderID)"
                }
            }
            XCTAssertEqual(listed.sorted(), expected.sorted(), "\(database)")
            XCTAssertTrue(listed.contains { $0.hasPrefix("2028-02-29 ") }, "a leap day comes back in 2028")
        }
    }

    func testUpcomingListsEachOccurrenceOfAMonthFromToday() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let monthly = try await reminder(
                app, account,
                #"{"contact_id": \#(ada.id), "title": "Rent", "initial_date": "2024-01-31", "frequency_type": "month"}"#
            )
            let weekly = try await reminder(
                app, account,
                #"{"contact_id": \#(ada.id), "title": "Run", "initial_date": "2024-04-27", "frequency_type": "week"}"#)
            let today = try await reminder(
                app, account,
                #"{"contact_id": \#(ada.id), "title": "Today", "initial_date": "2023-05-04", "frequency_type": "year"}"#
            )

            let may = try await app.send(.GET, "/api/reminders/upcoming/0", headers: account.bearer)
            XCTAssertEqual(may.status, .ok)
            let items = try may.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data
            XCTAssertEqual(
                items.map { "\($0.plannedDate.prefix(10)) \($0.title)" },
                [
                    "2024-05-04 Run", "2024-05-04 Today", "2024-05-11 Run", "2024-05-18 Run", "2024-05-25 Run",
                    "2024-05-31 Rent",
                ], "this month from today: today's items stay all day")
            XCTAssertTrue(items.allSatisfy { $0.id == $0.reminderID })
            XCTAssertEqual(items.last?.plannedDate, "2024-05-31T00:00:00Z")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: may.text, at: ["data"]) == nil, true, "data is a list, not an object")
            XCTAssertEqual(Set(items.map(\.reminderID)), [monthly.id, weekly.id, today.id])

            let june = try await app.send(.GET, "/api/reminders/upcoming/1", headers: account.bearer)
            let juneItems = try june.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data
            XCTAssertEqual(juneItems.filter { $0.title == "Rent" }.map(\.plannedDate), ["2024-06-30T00:00:00Z"])
            XCTAssertEqual(juneItems.filter { $0.title == "Run" }.count, 5, "June 2024 has five Saturdays")
            let february = try await app.send(.GET, "/api/reminders/upcoming/9", headers: account.bearer)
            XCTAssertEqual(
                try february.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data.filter { $0.title == "Rent" }
                    .map(\.plannedDate), ["2025-02-28T00:00:00Z"])
            let april = try await app.send(.GET, "/api/reminders/upcoming/-1", headers: account.bearer)
            XCTAssertEqual(
                try april.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data.map {
                    String($0.plannedDate.prefix(10))
                },
                ["2024-04-27", "2024-04-30"], "a past month is listed whole")
            for bad in ["x", "1201", "1.5"] {
                let response = try await app.send(.GET, "/api/reminders/upcoming/\(bad)", headers: account.bearer)
                XCTAssertEqual(response.status, .notFound, bad)
            }
        }
    }

    func testEveryProblemInOne422AndNothingSaved() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let response = try await app.send(
                .POST, "/api/reminders", headers: account.bearer,
                json:
                    #"{"title": " ", "initial_date": "2023-02-30", "frequency_type": "daily", "frequency_number": 0, "description": "\#(String(repeating: "x", count: 10_001))"}"#
            )
            XCTAssertEqual(response.status, .unprocessableEntity)
            XCTAssertEqual(
                try response.decoded(ErrorEnvelope.self).error.message,
                .list([
                    "Choose the contact this reminder is about.", "Title is required.",
                    "Description must be at most 10000 characters.",
                    "Date “2023-02-30” is not a day that exists, written as YYYY-MM-DD.",
                    "Repeat must be one_time, week, month or year.", "Every must be a whole number from 1 to 1,000.",
                ]))
            let typed = try await app.send(
                .POST, "/api/reminders", headers: account.bearer,
                json:
                    #"{"contact_id": "ada", "title": "x", "initial_date": "2024-01-01", "frequency_type": "week", "frequency_number": "often"}"#
            )
            XCTAssertEqual(
                try typed.decoded(ErrorEnvelope.self).error.message,
                .list(["Contact must be a whole number.", "Every must be a whole number."]))
            let list = try await app.send(.GET, "/api/reminders", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<ReminderResource>.self).meta.total, 0)
        }
    }

    func testAnotherAccountsRemindersAreNotFoundAndAContactTakesItsRemindersWithIt() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let mine = try await reminder(
                app, owner,
                #"{"contact_id": \#(ada.id), "title": "Tea", "initial_date": "2024-05-10", "frequency_type": "one_time"}"#
            )
            let eve = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let requests: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/reminders/\(mine.id)", nil),
                (.PUT, "/api/reminders/\(mine.id)", #"{"title": "Coffee"}"#),
                (.DELETE, "/api/reminders/\(mine.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/reminders", nil),
                (
                    .POST, "/api/contacts/\(ada.id)/reminders",
                    #"{"title": "x", "initial_date": "2024-01-01", "frequency_type": "year"}"#
                ),
                (
                    .POST, "/api/reminders",
                    #"{"contact_id": \#(ada.id), "title": "x", "initial_date": "2024-01-01", "frequency_type": "year"}"#
                ),
            ]
            for (method, path, body) in requests {
                let response = try await app.send(method, path, headers: eve.bearer, json: body)
                XCTAssertEqual(response.status, .notFound, "\(database): \(method) \(path)")
            }
            let upcoming = try await app.send(.GET, "/api/reminders/upcoming/0", headers: eve.bearer)
            XCTAssertEqual(try upcoming.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data.count, 0)

            try await app.db.sqlDatabase().raw("DELETE FROM contacts WHERE id = \(literal: ada.id)").run()
            let remaining = try await ReminderModel.query(on: app.db).count()
            XCTAssertEqual(remaining, 0, "\(database): the database deletes a contact's reminders")
        }
    }
}

final class ReminderTimelineTests: XCTestCase {
    private func timeline(_ app: Application, _ account: TestAccount) async throws -> ReminderTimelineResource {
        let response = try await app.send(.GET, "/api/reminders/timeline", headers: account.bearer)
        XCTAssertEqual(response.status, .ok, response.text)
        return try response.decoded(DataEnvelope<ReminderTimelineResource>.self).data
    }

    private func add(
        _ app: Application, _ account: TestAccount, contact: Int, _ title: String, _ date: String, _ type: String
    )
        async throws -> Int
    {
        let response = try await app.send(
            .POST, "/api/contacts/\(contact)/reminders", headers: account.bearer,
            json: #"{"title": "\#(title)", "initial_date": "\#(date)", "frequency_type": "\#(type)"}"#)
        XCTAssertEqual(response.status, .created, response.text)
        return try response.decoded(DataEnvelope<ReminderResource>.self).data.id
    }

    /// The timeline reads every reminder as one packed text; a record it cannot read is an error, not a
    /// reminder quietly left off.
    func testPackedPlacementsReadBackAndARecordTheyCannotReadIsAnError() throws {
        let placements = try ReminderRows.placements(fromPacked: "7,3,2024-05-01,one_time,1,1;8,4,2020-02-29,year,2,0")
        XCTAssertEqual(placements.map(\.id), [7, 8])
        XCTAssertEqual(placements.map(\.contactID), [3, 4])
        XCTAssertEqual(placements.map(\.isDone), [true, false])
        XCTAssertEqual(placements[1].schedule.initialDate, CalendarDate(year: 2020, month: 2, day: 29))
        XCTAssertEqual(placements[1].schedule.recurrence, Recurrence(frequencyType: "year", frequencyNumber: 2))
        XCTAssertEqual(try ReminderRows.placements(fromPacked: ""), [])
        for broken in [
            "7,3,2024-05-01,one_time,1", "7,3,2024-13-01,one_time,1,0", "x,3,2024-05-01,week,1,0",
            "7,3,2024-05-01,fortnight,1,0", "7,3,2024-05-01,week,1,2",
        ] {
            XCTAssertThrowsError(try ReminderRows.placements(fromPacked: broken), broken)
        }
    }

    func testATimelineShowsAWindowOfEachGroupAndPagesThroughTheRest() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            // 105 later this year and next, one overdue; today is Saturday 2024-05-04.
            for day in 0..<105 {
                let date = CalendarDate(year: 2024, month: 7, day: 1)!.adding(days: day)!
                _ = try await add(
                    app, account, contact: day == 104 ? grace.id : ada.id, "Later \(day)", date.description, "one_time")
            }
            _ = try await add(app, account, contact: ada.id, "Missed", "2024-05-01", "one_time")
            let whole = try await timeline(app, account)
            XCTAssertEqual(whole.later.count, 105, "\(database): the count is every reminder")
            XCTAssertEqual(whole.later.items.count, 100, "the window is the first hundred")
            XCTAssertEqual(whole.later.items.first?.title, "Later 0")
            XCTAssertEqual(whole.later.nextPage, "http://127.0.0.1:8080/api/reminders/timeline/later?page=2")
            XCTAssertEqual(whole.overdue.items.map(\.title), ["Missed"])
            XCTAssertNil(whole.overdue.nextPage, "a group shown whole has no next page")

            let small = try await app.send(.GET, "/api/reminders/timeline?limit=2", headers: account.bearer)
            let window = try small.decoded(DataEnvelope<ReminderTimelineResource>.self).data
            XCTAssertEqual(window.later.items.map(\.title), ["Later 0", "Later 1"])
            XCTAssertEqual(window.later.nextPage, "http://127.0.0.1:8080/api/reminders/timeline/later?limit=2&page=2")

            let rest = try await app.send(.GET, "/api/reminders/timeline/later?page=2", headers: account.bearer)
            XCTAssertEqual(rest.status, .ok, rest.text)
            let page = try rest.decoded(PageResource<ReminderTimelineResource.Item>.self)
            XCTAssertEqual(page.data.map(\.title), ["Later 100", "Later 101", "Later 102", "Later 103", "Later 104"])
            XCTAssertEqual(page.data.last?.contact.name, "Grace", "the contacts of the page's reminders")
            XCTAssertEqual(page.meta.total, 105)
            XCTAssertEqual(page.meta.currentPage, 2)
            XCTAssertNil(page.links.next)
            let unknown = try await app.send(.GET, "/api/reminders/timeline/someday", headers: account.bearer)
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertEqual(unknown.errorCode, 31)
            let tooMany = try await app.send(.GET, "/api/reminders/timeline?limit=101", headers: account.bearer)
            XCTAssertEqual(tooMany.status, .badRequest)
        }
    }

    func testTheTimelineGroupsByTheUsersTodayAndDoneLeavesOverdue() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            // Saturday 2024-05-04 in UTC; the week runs Monday to Sunday.
            let missed = try await add(app, account, contact: ada.id, "Return the book", "2024-05-01", "one_time")
            _ = try await add(app, account, contact: ada.id, "Anniversary", "2020-05-04", "year")
            _ = try await add(app, account, contact: ada.id, "Brunch", "2024-05-05", "one_time")
            _ = try await add(app, account, contact: ada.id, "Dentist", "2024-05-20", "one_time")
            _ = try await add(app, account, contact: ada.id, "Rent", "2024-01-10", "month")
            let grouped = try await timeline(app, account)
            XCTAssertEqual(grouped.overdue.items.map(\.title), ["Return the book"], "\(database)")
            XCTAssertEqual(grouped.overdue.items.first?.date, "2024-05-01")
            XCTAssertEqual(grouped.today.items.map(\.title), ["Anniversary"])
            XCTAssertEqual(grouped.thisWeek.items.map(\.title), ["Brunch"])
            XCTAssertEqual(grouped.thisMonth.items.map(\.title), ["Rent", "Dentist"])
            XCTAssertEqual(grouped.thisMonth.count, 2)
            XCTAssertEqual(grouped.later.count, 0)
            XCTAssertEqual(grouped.today.items.first?.contact.name, "Ada Lovelace")
            XCTAssertEqual(grouped.today.items.first?.contact.id, ada.id)

            // A week from Sunday (the user's setting) ends on this Saturday: Sunday's brunch is next week.
            try await NotificationSettingsService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
                .save(NotificationPreferences(weekStartsOn: 1), timeZone: .gmt)
            let fromSunday = try await timeline(app, account)
            XCTAssertEqual(fromSunday.thisWeek.count, 0)
            XCTAssertEqual(fromSunday.thisMonth.items.map(\.title), ["Brunch", "Rent", "Dentist"])

            let done = try await app.send(.POST, "/api/reminders/\(missed)/done", headers: account.bearer)
            XCTAssertEqual(done.status, .ok, done.text)
            let afterDone = try await timeline(app, account)
            XCTAssertEqual(afterDone.overdue.count, 0, "done leaves the overdue list")
            // Done ahead of its day, a one-time reminder leaves the timeline and today's count too.
            let keys = try await add(app, account, contact: ada.id, "Pick up the keys", "2024-05-04", "one_time")
            let service = ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let saturday = try XCTUnwrap(CalendarDate(iso8601: "2024-05-04"))
            let dueBefore = try await service.dueCount(on: saturday)
            _ = try await app.send(.POST, "/api/reminders/\(keys)/done", headers: account.bearer)
            let doneEarly = try await timeline(app, account)
            XCTAssertEqual(doneEarly.today.items.map(\.title), ["Anniversary"])
            let dueAfter = try await service.dueCount(on: saturday)
            XCTAssertEqual([dueBefore, dueAfter], [2, 1])
            let rent = try XCTUnwrap(afterDone.thisMonth.items.first { $0.title == "Rent" })
            let refused = try await app.send(.POST, "/api/reminders/\(rent.reminderID)/done", headers: account.bearer)
            XCTAssertEqual(refused.status, .conflict)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list(["Only a one-time reminder can be marked done; a repeating one comes back."]))
        }
    }

    func testTodayIsTheUsersOwnAtBothEndsOfTheClock() async throws {
        try await forEachDatabase { app, clock, _ in
            // 2024-05-04T10:06Z is already Sunday the 5th in Kiritimati (UTC+14) and still Friday the 3rd
            // at UTC−12: the same reminders fall into different groups.
            for (zone, today, thisWeek) in [
                ("Pacific/Kiritimati", ["Sunday"], [String]()), ("Etc/GMT+12", [], ["Saturday", "Sunday"]),
            ] {
                let account = try await app.makeAccount(email: "\(zone.count)@example.com")
                try await app.db.sqlDatabase().raw(
                    "UPDATE users SET timezone = \(bind: zone) WHERE id = \(literal: account.id)"
                ).run()
                let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
                _ = try await add(app, account, contact: ada.id, "Saturday", "2024-05-04", "one_time")
                _ = try await add(app, account, contact: ada.id, "Sunday", "2024-05-05", "one_time")
                let grouped = try await timeline(app, account)
                XCTAssertEqual(grouped.today.items.map(\.title), today, zone)
                XCTAssertEqual(grouped.thisWeek.items.map(\.title), thisWeek, zone)
                if zone == "Pacific/Kiritimati" {
                    XCTAssertEqual(grouped.overdue.items.map(\.title), ["Saturday"], "yesterday there")
                }
            }

            // 2024-05-31T16:00Z, across a month's end: already Saturday 1 June in Kiritimati, still Friday
            // 31 May at UTC−12, where the weekend is this week although it is next month.
            clock.advance(by: 27 * 86_400 + 6 * 3_600 - 365)
            for (zone, overdue, today, thisWeek, thisMonth) in [
                ("Pacific/Kiritimati", ["31 May"], ["1 June"], ["2 June"], ["29 June"]),
                ("Etc/GMT+12", [], ["31 May"], ["1 June", "2 June"], [String]()),
            ] {
                let account = try await app.makeAccount(email: "month-\(zone.count)@example.com")
                try await app.db.sqlDatabase().raw(
                    "UPDATE users SET timezone = \(bind: zone) WHERE id = \(literal: account.id)"
                ).run()
                let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
                for (title, date) in [
                    ("31 May", "2024-05-31"), ("1 June", "2024-06-01"), ("2 June", "2024-06-02"),
                    ("29 June", "2024-06-29"),
                ] {
                    _ = try await add(app, account, contact: ada.id, title, date, "one_time")
                }
                let grouped = try await timeline(app, account)
                XCTAssertEqual(grouped.overdue.items.map(\.title), overdue, zone)
                XCTAssertEqual(grouped.today.items.map(\.title), today, zone)
                XCTAssertEqual(grouped.thisWeek.items.map(\.title), thisWeek, zone)
                XCTAssertEqual(grouped.thisMonth.items.map(\.title), thisMonth, zone)
                XCTAssertEqual(grouped.later.items.map(\.title), zone == "Etc/GMT+12" ? ["29 June"] : [], zone)
            }
        }
    }
}

final class BirthdayReminderTests: XCTestCase {
    private func reminders(_ app: Application, _ account: TestAccount, of contact: Int) async throws
        -> [ReminderResource]
    {
        let response = try await app.send(.GET, "/api/contacts/\(contact)/reminders", headers: account.bearer)
        return try response.decoded(PageResource<ReminderResource>.self).data
    }

    private func put(_ app: Application, _ account: TestAccount, _ contact: Int, _ json: String) async throws {
        let response = try await app.send(.PUT, "/api/contacts/\(contact)", headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .ok, response.text)
    }

    func testTheBirthdayReminderFollowsTheBirthdayUnderOneId() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let created = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json:
                    #"{"first_name": "Zoë", "birthdate_day": 29, "birthdate_month": 2, "birthdate_year": 1992, "birthdate_add_reminder": true}"#
            )
            XCTAssertEqual(created.status, .created, created.text)
            let zoe = try created.decoded(DataEnvelope<ContactResource>.self).data.id
            let first = try await reminders(app, account, of: zoe)
            XCTAssertEqual(first.map(\.title), ["Wish happy birthday to Zoë"], "\(database)")
            let birthday = try XCTUnwrap(first.first)
            XCTAssertFalse(birthday.delible)
            XCTAssertEqual(birthday.frequencyType, "year")
            XCTAssertEqual(birthday.initialDate, "1992-02-29T00:00:00Z")
            XCTAssertEqual(birthday.nextExpectedDate, "2025-02-28T00:00:00Z")

            let refused = try await app.send(.DELETE, "/api/reminders/\(birthday.id)", headers: account.bearer)
            XCTAssertEqual(refused.status, .conflict)

            try await put(app, account, zoe, #"{"birthdate_day": 1, "birthdate_month": 3, "birthdate_year": 1992}"#)
            let moved = try await reminders(app, account, of: zoe)
            XCTAssertEqual(moved.map(\.id), [birthday.id], "the same reminder, moved")
            XCTAssertEqual(moved.first?.initialDate, "1992-03-01T00:00:00Z")
            try await put(app, account, zoe, #"{"nickname": "Zo"}"#)
            let kept = try await reminders(app, account, of: zoe)
            XCTAssertEqual(kept.map(\.id), [birthday.id], "other edits keep it")

            try await put(app, account, zoe, #"{"is_birthdate_known": false}"#)
            let afterRemoval = try await reminders(app, account, of: zoe)
            XCTAssertEqual(afterRemoval.count, 0, "gone with the birthday")
            try await put(app, account, zoe, #"{"birthdate_day": 31, "birthdate_month": 12}"#)
            let withoutWish = try await reminders(app, account, of: zoe)
            XCTAssertEqual(withoutWish.count, 0, "a birthday alone does not ask for a reminder")
            try await put(app, account, zoe, #"{"birthdate_add_reminder": "1"}"#)
            let yearless = try await reminders(app, account, of: zoe)
            XCTAssertEqual(yearless.first?.initialDate, "2000-12-31T00:00:00Z", "a birthday with no year")
            try await put(app, account, zoe, #"{"birthdate_add_reminder": false}"#)
            let switchedOff = try await reminders(app, account, of: zoe)
            XCTAssertEqual(switchedOff.count, 0)
        }
    }

    func testRemindMeOnTheContactForm() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            try await browser.get("/contacts/new")
            let created = try await browser.post(
                "/contacts",
                form: [
                    "first_name": "Ada", "birthdate_day": "10", "birthdate_month": "12", "birthdate_add_reminder": "on",
                ])
            XCTAssertEqual(created.status, .seeOther, created.text)
            let location = try XCTUnwrap(created.headers.first(name: .location))
            let edit = try await browser.get(location + "/edit")
            XCTAssertTrue(
                edit.text.contains(
                    #"<input id="birthdate_add_reminder" name="birthdate_add_reminder" type="checkbox" checked"#),
                edit.text)
            let count = try await ReminderModel.query(on: app.db).count()
            XCTAssertEqual(count, 1)
            let page = try await browser.get(location)
            XCTAssertTrue(
                page.text.contains("<strong>Wish happy birthday to Ada</strong> — next 10 December 2024 (every year)"),
                page.text)
            let saved = try await browser.post(
                location + "/edit", form: ["first_name": "Ada", "birthdate_day": "10", "birthdate_month": "12"])
            XCTAssertEqual(saved.status, .seeOther)
            let afterUntick = try await ReminderModel.query(on: app.db).count()
            XCTAssertEqual(afterUntick, 0, "unticking Remind me removes the reminder")
            let empty = try await browser.get(location)
            XCTAssertTrue(empty.text.contains("No reminders yet."))

            // An overdue one-time reminder says so in words, and is listed first.
            let account = try await app.account(email: "grace@example.com")
            let contactID = try XCTUnwrap(Int(location.split(separator: "/").last ?? ""))
            let service = ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            _ = try await service.create(
                contactID: contactID, ReminderDraft(title: "Tea", initialDate: "2024-06-01", frequencyType: "month"))
            _ = try await service.create(
                contactID: contactID,
                ReminderDraft(title: "Return the book", initialDate: "2024-05-01", frequencyType: "one_time"))
            let listed = try await browser.get(location)
            let overdue = try XCTUnwrap(listed.text.range(of: "overdue since</span> 1 May 2024 (once)"))
            let tea = try XCTUnwrap(listed.text.range(of: "<strong>Tea</strong> — next 1 June 2024 (every month)"))
            XCTAssertLessThan(overdue.lowerBound, tea.lowerBound)
        }
    }
}
