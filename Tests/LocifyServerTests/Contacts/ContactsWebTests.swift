import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class ContactsWebTests: XCTestCase {
    func testContactLifecycleInTheBrowser() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            try await browser.get("/contacts/new")

            let invalid = try await browser.post(
                "/contacts",
                form: ["first_name": "", "last_name": "Curie", "birthdate_day": "x", "birthdate_month": "11"])
            XCTAssertEqual(invalid.status, .unprocessableEntity)
            XCTAssertTrue(invalid.text.contains("First name is required."))
            XCTAssertTrue(invalid.text.contains("Birthday day must be a whole number."))
            XCTAssertTrue(invalid.text.contains(#"value="Curie""#))
            XCTAssertTrue(invalid.text.contains(#"<option value="11" selected>November</option>"#))

            let created = try await browser.post(
                "/contacts",
                form: [
                    "first_name": "Marie", "last_name": "Curie", "email": "marie@example.fr", "birthdate_day": "7",
                    "birthdate_month": "11", "birthdate_year": "1867", "gender_id": "2", "is_starred": "on",
                    "description": "Two Nobel prizes",
                ])
            XCTAssertEqual(created.status, .seeOther, "\(database): \(created.text)")
            let location = try XCTUnwrap(created.headers.first(name: .location))
            let detail = try await browser.get(location)
            XCTAssertTrue(detail.text.contains("Marie Curie was added."))
            XCTAssertTrue(detail.text.contains("7 November 1867 (156 years old)"))
            XCTAssertTrue(detail.text.contains("Two Nobel prizes"))

            _ = try await app.makeAccount()
            for name in ["Zed", "Albert"] {
                try await browser.get("/contacts/new")
                try await browser.post("/contacts", form: ["first_name": name])
            }
            let list = try await browser.get("/contacts")
            let marie = try XCTUnwrap(list.text.range(of: #"last_name">Marie Curie"#))
            let albert = try XCTUnwrap(list.text.range(of: #"last_name">Albert"#))
            let zed = try XCTUnwrap(list.text.range(of: #"last_name">Zed"#))
            XCTAssertLessThan(marie.lowerBound, albert.lowerBound, "starred first")
            XCTAssertLessThan(albert.lowerBound, zed.lowerBound, "then by name")
            XCTAssertTrue(list.text.contains("3 contacts"))
            XCTAssertTrue(
                list.text.contains(#"<span class="contact-meta">marie@example.fr</span>"#), "the first e-mail")

            let search = try await browser.get("/contacts?q=CURIE")
            XCTAssertTrue(search.text.contains("1 contact matching “CURIE”"))
            XCTAssertFalse(search.text.contains("Albert"))

            let bySpelling = try await browser.get("/contacts?q=MARIE%40example")
            XCTAssertTrue(bySpelling.text.contains("1 contact matching"), "the e-mail field is searched")
            let edit = try await browser.get(location + "/edit")
            XCTAssertFalse(edit.text.contains(#"name="email""#), "e-mails are edited on the contact's page")

            let saved = try await browser.post(
                location + "/edit",
                form: [
                    "first_name": "Marie", "last_name": "Skłodowska-Curie", "birthdate_day": "7",
                    "birthdate_month": "11", "birthdate_year": "1867",
                ])
            XCTAssertEqual(saved.status, .seeOther)
            let afterEdit = try await browser.get(location)
            XCTAssertTrue(afterEdit.text.contains("Marie Skłodowska-Curie"))
            XCTAssertFalse(
                afterEdit.text.contains("Two Nobel prizes"), "the form sends every field; an emptied one is cleared")

            let confirm = try await browser.get(location + "/delete")
            XCTAssertTrue(confirm.text.contains("Delete Marie Skłodowska-Curie?"))
            let deleted = try await browser.post(location + "/delete", form: [:])
            XCTAssertEqual(deleted.headers.first(name: .location), "/contacts")
            let missing = try await browser.get(location)
            XCTAssertEqual(missing.status, .notFound)
            let count = try await app.count(ContactsTable.self)
            XCTAssertEqual(count, 2)
        }
    }

    func testTheContactPageShowsThePersonFirstAndFoldsItsAddForms() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let page = try await browser.get("/contacts/\(ada.id)")
            let headings = [
                "fields-heading", "addresses-heading", "reminders-heading", "tasks-heading", "notes-heading",
                "tags-heading",
            ].map { page.text.range(of: #"<h2 id="\#($0)""#)?.lowerBound }
            XCTAssertEqual(headings.compactMap { $0 }.count, 6, "\(database): \(page.text)")
            XCTAssertEqual(headings.compactMap { $0 }, headings.compactMap { $0 }.sorted(), "how to reach them first")
            XCTAssertTrue(page.text.contains(#"<nav class="section-links" aria-label="Sections of this page">"#))
            for summary in [
                "Add a phone, e-mail or account", "Add tags", "Add a task", "Write a note", "Upload a photo",
            ] {
                XCTAssertTrue(
                    page.text.contains(#"<details class="add-form">"# + "\n    <summary>\(summary)</summary>"), summary)
            }
            // A form sent with a problem comes back open, its message beside the field.
            let empty = try await browser.post("/contacts/\(ada.id)/notes", form: ["body": ""])
            XCTAssertTrue(
                empty.text.contains(#"<details class="add-form" open>"# + "\n    <summary>Write a note</summary>"),
                empty.text)
        }
    }

    func testContactListPaginatesAndHidesOtherAccounts() async throws {
        try await forEachDatabase { app, _, _ in
            let other = try await app.makeAccount(email: "other@example.com", name: "Other")
            let foreignID = try await app.makeContact(for: other, ContactDraft(firstName: "Foreign")).id

            let browser = WebClient(app: app)
            _ = try await browser.register()
            let grace = try await app.account(email: "grace@example.com")
            for number in 1...21 {
                try await app.makeContact(for: grace, ContactDraft(firstName: String(format: "Person %02d", number)))
            }
            let first = try await browser.get("/contacts")
            XCTAssertTrue(first.text.contains("21 contacts"))
            XCTAssertTrue(first.text.contains("Page 1 of 2"))
            XCTAssertTrue(first.text.contains(#"<a href="/contacts?page=2" rel="next">"#))
            XCTAssertFalse(first.text.contains("Person 21"))
            let second = try await browser.get("/contacts?page=2")
            XCTAssertTrue(second.text.contains("Person 21"))
            XCTAssertTrue(second.text.contains(#"rel="prev""#))
            XCTAssertFalse(first.text.contains("Foreign") || second.text.contains("Foreign"))

            let stranger = try await browser.get("/contacts/\(foreignID)")
            XCTAssertEqual(stranger.status, .notFound)
            try await browser.get("/contacts")
            let deleteAttempt = try await browser.post("/contacts/\(foreignID)/delete", form: [:])
            XCTAssertEqual(deleteAttempt.status, .notFound)
            let stillThere = try await app.storedContact(foreignID)
            XCTAssertNotNil(stillThere)
        }
    }
}
