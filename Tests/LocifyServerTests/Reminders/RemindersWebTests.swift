import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The Reminders page and the reminder forms; the test clock's today is Saturday 4 May 2024 (UTC).
final class RemindersWebTests: XCTestCase {
    private func reminderCount(_ app: Application) async throws -> Int {
        try await app.count(RemindersTable.self)
    }

    func testRemindersAreAddedEditedDoneAndDeletedFromTheTimeline() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))

            var page = try await browser.get("/reminders")
            XCTAssertEqual(page.status, .ok, "\(database)")
            XCTAssertTrue(page.text.contains("No reminders yet."))
            let form = try await browser.get("/reminders/new?return_to=/reminders")
            XCTAssertTrue(form.text.contains(#"<option value="\#(ada.id)">Ada Lovelace</option>"#), form.text)
            XCTAssertTrue(form.text.contains(#"type="date""#) && form.text.contains(#"value="2024-05-04""#))

            let refused = try await browser.post(
                "/reminders",
                form: [
                    "contact_id": "", "title": " ", "initial_date": "2024-02-30", "frequency_type": "month",
                    "frequency_number": "0", "return_to": "/reminders",
                ])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            for message in [
                "Choose the contact this reminder is about.", "Title is required.", "is not a day that exists",
                "Every must be a whole number from 1 to 1,000.",
            ] {
                XCTAssertTrue(refused.text.contains(message), message)
            }
            XCTAssertTrue(refused.text.contains(#"value="2024-02-30""#), "what was typed stays")
            let afterRefusal = try await reminderCount(app)
            XCTAssertEqual(afterRefusal, 0)

            let added = try await browser.post(
                "/reminders",
                form: [
                    "contact_id": String(ada.id), "title": "Return the book", "initial_date": "2024-05-01",
                    "frequency_type": "one_time", "frequency_number": "1", "return_to": "//evil.example/",
                ])
            XCTAssertEqual(added.status, .seeOther, added.text)
            XCTAssertEqual(added.headers.first(name: .location), "/reminders", "only this server's pages")
            _ = try await browser.post(
                "/reminders",
                form: [
                    "contact_id": String(ada.id), "title": "Call", "initial_date": "2024-04-04",
                    "frequency_type": "month", "frequency_number": "1",
                ])
            page = try await browser.get("/reminders")
            XCTAssertTrue(page.text.contains("The reminder “Call” was added."))
            XCTAssertTrue(page.text.contains(#"<h2 id="overdue-heading">Overdue <span class="count">(1)</span></h2>"#))
            XCTAssertTrue(page.text.contains(#"<h2 id="today-heading">Today <span class="count">(1)</span></h2>"#))
            XCTAssertTrue(page.text.contains(##"<a href="#today">Today <span class="count">1</span></a>"##), page.text)
            XCTAssertTrue(page.text.contains("Wednesday 1 May 2024 (3 days ago), once"))
            XCTAssertTrue(page.text.contains("Saturday 4 May 2024 (today), every month"))
            XCTAssertTrue(page.text.contains(#"<a href="/contacts/\#(ada.id)">Ada Lovelace</a>"#))
            XCTAssertTrue(page.text.contains(#"<span class="visually-hidden">, 1 due today</span>"#))

            let stored = try await ReminderService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            )
            .all()
            let book = try XCTUnwrap(stored.first { $0.fields.title == "Return the book" })
            let call = try XCTUnwrap(stored.first { $0.fields.title == "Call" })
            try await browser.get("/reminders")
            let done = try await browser.post("/reminders/\(book.id)/done", form: ["return_to": "/reminders"])
            XCTAssertEqual(done.status, .seeOther)
            page = try await browser.get("/reminders")
            XCTAssertTrue(page.text.contains("“Return the book” is done."))
            XCTAssertFalse(page.text.contains("overdue-heading"))
            let notDone = try await browser.post("/reminders/\(call.id)/done", form: [:])
            XCTAssertEqual(notDone.status, .seeOther)
            page = try await browser.get("/reminders")
            XCTAssertTrue(page.text.contains("Only a one-time reminder can be marked done"))

            let edit = try await browser.get("/reminders/\(call.id)/edit?return_to=/reminders")
            XCTAssertTrue(edit.text.contains(#"<option value="month" selected>Months</option>"#))
            let saved = try await browser.post(
                "/reminders/\(call.id)/edit",
                form: [
                    "contact_id": String(ada.id), "title": "Call Ada", "initial_date": "2024-05-20",
                    "frequency_type": "week", "frequency_number": "2", "return_to": "/reminders",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            let changed = try await ReminderService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            ).reminder(call.id)
            XCTAssertEqual(changed.fields.title, "Call Ada")
            XCTAssertEqual(changed.fields.schedule.recurrence, .weeks(2))

            let confirm = try await browser.get("/reminders/\(call.id)/delete?return_to=/reminders")
            XCTAssertTrue(confirm.text.contains("Delete the reminder “Call Ada” of Ada Lovelace?"))
            let deleted = try await browser.post("/reminders/\(call.id)/delete", form: ["return_to": "/reminders"])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await reminderCount(app)
            XCTAssertEqual(left, 1)

            let other = WebClient(app: app)
            _ = try await other.register(name: "Other", email: "other@example.com")
            let foreign = try await other.get("/reminders/\(book.id)/edit")
            XCTAssertEqual(foreign.status, .notFound)
            try await other.get("/reminders")
            let foreignDelete = try await other.post("/reminders/\(book.id)/delete", form: [:])
            XCTAssertEqual(foreignDelete.status, .notFound)
            let foreignContact = try await other.get("/reminders/new?contact=\(ada.id)")
            XCTAssertEqual(foreignContact.status, .notFound)
        }
    }

    func testFromAContactsPageTheFormKnowsTheContactAndGoesBackThere() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(
                for: account,
                ContactDraft(firstName: "Ada", birthdateDay: 10, birthdateMonth: 12, birthdateYear: 1815))
            var contactPage = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(contactPage.text.contains("No reminders yet."))
            let newURL = "/reminders/new?contact=\(ada.id)&amp;return_to=/contacts/\(ada.id)"
            XCTAssertTrue(contactPage.text.contains(newURL), contactPage.text)
            let form = try await browser.get(newURL.replacingOccurrences(of: "&amp;", with: "&"))
            XCTAssertTrue(form.text.contains("<h1>New reminder for Ada</h1>"))
            XCTAssertTrue(form.text.contains(#"<input type="hidden" name="contact_id" value="\#(ada.id)">"#))
            XCTAssertFalse(form.text.contains(#"<select id="contact_id""#))
            let added = try await browser.post(
                "/reminders",
                form: [
                    "contact_id": String(ada.id), "title": "Send the notes", "initial_date": "2024-05-10",
                    "frequency_type": "one_time", "return_to": "/contacts/\(ada.id)",
                ])
            XCTAssertEqual(added.headers.first(name: .location), "/contacts/\(ada.id)")
            contactPage = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(contactPage.text.contains("<strong>Send the notes</strong> — next 10 May 2024 (once)"))

            // The birthday's reminder is changed through the birthday.
            try await browser.get("/contacts/\(ada.id)/edit")
            _ = try await browser.post(
                "/contacts/\(ada.id)/edit",
                form: [
                    "first_name": "Ada", "birthdate_day": "10", "birthdate_month": "12", "birthdate_year": "1815",
                    "birthdate_add_reminder": "on",
                ])
            let found = try await ReminderService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            ).birthdayReminder(of: ada.id)
            let birthday = try XCTUnwrap(found)
            let edit = try await browser.get("/reminders/\(birthday.id)/edit")
            XCTAssertEqual(edit.status, .seeOther)
            XCTAssertEqual(edit.headers.first(name: .location), "/contacts/\(ada.id)/edit")
            contactPage = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(contactPage.text.contains("Wish happy birthday to Ada"))
            XCTAssertFalse(contactPage.text.contains("/reminders/\(birthday.id)/delete"))
        }
    }

    func testALongTimelineShowsTheNearestAndOffersTheRest() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let service = ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            for number in 0..<(RemindersPage.shownPerGroup + 5) {
                let day = try XCTUnwrap(CalendarDate(iso8601: "2024-07-01")?.adding(days: number))
                _ = try await service.create(
                    contactID: ada.id,
                    ReminderDraft(title: "Later \(number)", initialDate: day.description, frequencyType: "one_time"))
            }
            let page = try await browser.get("/reminders")
            XCTAssertTrue(page.text.contains("Later <span class=\"count\">(105)</span>"))
            XCTAssertTrue(page.text.contains("5 more not shown."))
            XCTAssertTrue(page.text.contains("Later 99</strong>"))
            XCTAssertFalse(page.text.contains("Later 100</strong>"), "the furthest ones wait for Show all")
            let all = try await browser.get("/reminders?all=1")
            XCTAssertTrue(all.text.contains("Later 104</strong>"))
            XCTAssertFalse(all.text.contains("more not shown"))
        }
    }
}
