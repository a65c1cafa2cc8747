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
            let remaining = try await app.count(RemindersTable.self)
            XCTAssertEqual(remaining, 0, "\(database): the database deletes a contact's reminders")
        }
    }
}
