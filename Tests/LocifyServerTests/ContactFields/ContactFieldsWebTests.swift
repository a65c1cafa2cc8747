import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's phone numbers, e-mails and accounts, and Settings → Kinds of contact field.
final class ContactFieldsWebTests: XCTestCase {
    func testAPhoneNumberIsAddedCalledEditedFoundAndDeletedOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            try await browser.get("/contacts/new")
            let created = try await browser.post(
                "/contacts", form: ["first_name": "Marie", "last_name": "Curie", "email": "marie@example.fr"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            let id = try XCTUnwrap(Int(page.split(separator: "/").last ?? ""))
            var detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(#"<a class="field-value" href="mailto:marie@example.fr">"#), "\(database)")
            let api = try await app.apiAccount(email: "grace@example.com")
            let kinds = try await app.send(.GET, "/api/contactfieldtypes", headers: api.bearer)
                .decoded(PageResource<ContactFieldTypeResource>.self).data
            let phone = try XCTUnwrap(kinds.first { $0.type == "phone" })
            XCTAssertTrue(detail.text.contains(#"<option value="\#(phone.id)" selected>Phone</option>"#), "Phone first")

            // A blank value is refused with what was chosen kept; nothing is stored.
            let refused = try await browser.post(
                page + "/fields", form: ["contact_field_type_id": String(phone.id), "data": " ", "labels": "Desk"])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains(#"<p class="error" id="new-field-data-error">Type the value.</p>"#))
            XCTAssertTrue(refused.text.contains(#"value="Desk""#))
            let added = try await browser.post(
                page + "/fields",
                form: ["contact_field_type_id": String(phone.id), "data": "+33 1 44 27 00 00", "labels": "mobile, Lab"])
            XCTAssertEqual(added.status, .seeOther, added.text)
            detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(#"<a class="field-value" href="tel:+33144270000">+33 1 44 27 00 00</a>"#),
                "tap to call")
            XCTAssertTrue(detail.text.contains("Phone · Mobile, Lab"))

            // Found by the number's digits, however it is typed.
            for query in ["144270000", "1 44 27", "+33144270000"] {
                let found = try await browser.get(
                    "/contacts?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                XCTAssertTrue(found.text.contains("1 contact matching"), "“\(query)”")
            }

            let fields = try await app.send(.GET, "/api/contacts/\(id)/contactfields", headers: api.bearer)
                .decoded(PageResource<ContactFieldResource>.self).data
            let number = try XCTUnwrap(fields.first { $0.contactFieldType.id == phone.id })
            XCTAssertEqual(number.labels.map(\.type), ["cell", "Lab"])
            let badEdit = try await browser.post(
                "/fields/\(number.id)", form: ["contact_field_type_id": String(phone.id), "data": ""])
            XCTAssertEqual(badEdit.status, .unprocessableEntity)
            XCTAssertTrue(badEdit.text.contains(#"id="field-\#(number.id)-data-error">Type the value."#))
            let edited = try await browser.post(
                "/fields/\(number.id)",
                form: ["contact_field_type_id": String(phone.id), "data": "+33 1 00 00 00 00", "labels": ""])
            XCTAssertEqual(edited.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(">+33 1 00 00 00 00</a>"))
            XCTAssertFalse(detail.text.contains("Mobile, Lab"), "emptied labels are taken off")
            let old = try await browser.get("/contacts?q=0144270000")
            XCTAssertFalse(old.text.contains("1 contact matching"))

            // Another account can neither see, change nor delete it.
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            for (path, form) in [
                ("/fields/\(number.id)", ["contact_field_type_id": String(phone.id), "data": "1"]),
                ("/fields/\(number.id)/delete", [:]),
                ("/contacts/\(id)/fields", ["contact_field_type_id": String(phone.id), "data": "1"]),
            ] {
                let response = try await stranger.post(path, form: form)
                XCTAssertEqual(response.status, .notFound, path)
            }

            let deleted = try await browser.post("/fields/\(number.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("“+33 1 00 00 00 00” was deleted."))
            XCTAssertFalse(detail.text.contains(">+33 1 00 00 00 00</a>"))
        }
    }

    func testSettingsManageTheKindsOfField() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains(#"href="/settings/field-kinds""#))
            var page = try await browser.get("/settings/field-kinds")
            XCTAssertEqual(page.status, .ok, "\(database)")
            XCTAssertTrue(page.text.contains(#"value="https://wa.me/""#))
            let refused = try await browser.post("/settings/field-kinds", form: ["name": " "])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("Name the kind of field."))
            try await browser.post(
                "/settings/field-kinds", form: ["name": "Mastodon", "protocol": "https://mastodon.social/@"])
            let api = try await app.apiAccount(email: "grace@example.com")
            var kinds = try await app.send(.GET, "/api/contactfieldtypes", headers: api.bearer)
                .decoded(PageResource<ContactFieldTypeResource>.self).data
            let mastodon = try XCTUnwrap(kinds.last)
            XCTAssertEqual([mastodon.name, mastodon.protocol], ["Mastodon", "https://mastodon.social/@"])
            try await browser.post(
                "/settings/field-kinds/\(mastodon.id)",
                form: ["name": "Fediverse", "protocol": "https://fedi.example/@"])
            let email = try XCTUnwrap(kinds.first)
            let undeletable = try await browser.post("/settings/field-kinds/\(email.id)/delete", form: [:])
            XCTAssertEqual(undeletable.status, .unprocessableEntity)
            XCTAssertTrue(undeletable.text.contains("cannot be deleted"))
            page = try await browser.get("/settings/field-kinds")
            XCTAssertTrue(page.text.contains(#"value="Fediverse""#))
            try await browser.post("/settings/field-kinds/\(mastodon.id)/delete", form: [:])
            kinds = try await app.send(.GET, "/api/contactfieldtypes", headers: api.bearer)
                .decoded(PageResource<ContactFieldTypeResource>.self).data
            XCTAssertEqual(kinds.count, 7)
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            let foreign = try await stranger.post("/settings/field-kinds/\(email.id)", form: ["name": "Mine"])
            XCTAssertEqual(foreign.status, .notFound)
        }
    }
}
