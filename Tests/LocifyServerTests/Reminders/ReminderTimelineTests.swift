import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The timeline of reminders (`/api/reminders/timeline`); the test clock's today is 2024-05-04 (UTC).
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
