import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// A contact's birthday reminder, through the API and the contact form; the test clock's today is 2024-05-04 (UTC).
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
            let count = try await app.count(RemindersTable.self)
            XCTAssertEqual(count, 1)
            let page = try await browser.get(location)
            XCTAssertTrue(
                page.text.contains("<strong>Wish happy birthday to Ada</strong> — next 10 December 2024 (every year)"),
                page.text)
            let saved = try await browser.post(
                location + "/edit", form: ["first_name": "Ada", "birthdate_day": "10", "birthdate_month": "12"])
            XCTAssertEqual(saved.status, .seeOther)
            let afterUntick = try await app.count(RemindersTable.self)
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
