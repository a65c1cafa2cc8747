import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's relationships: added on their own page, shown on both contacts linked to each
/// other, deleted from either; a missing choice is refused beside the form and nothing is saved.
final class RelationshipsWebTests: XCTestCase {
    func testRelationshipsOnBothContactsPages() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let madeAnna = try await browser.post("/contacts", form: ["first_name": "Anna", "last_name": "Ames"])
            let annaPage = try XCTUnwrap(madeAnna.headers.first(name: .location))
            let madeBen = try await browser.post("/contacts", form: ["first_name": "Ben", "last_name": "Ames"])
            let benPage = try XCTUnwrap(madeBen.headers.first(name: .location))
            var ben = try await browser.get(benPage)
            XCTAssertTrue(
                ben.text.contains(#"aria-labelledby="relationships-heading" id="relationships""#), "\(database)")
            XCTAssertTrue(ben.text.contains("No relationships yet."))
            XCTAssertTrue(ben.text.contains(#"href="\#(benPage)/relationships/new""#), ben.text)

            let form = try await browser.get(benPage + "/relationships/new")
            XCTAssertEqual(form.status, .ok)
            XCTAssertTrue(form.text.contains(">Anna Ames</option>"), "the other contacts to choose from")
            XCTAssertFalse(form.text.contains(">Ben Ames</option>"), "not the contact itself")
            XCTAssertTrue(form.text.contains("is Ben’s"), form.text)

            let annaID = try XCTUnwrap(annaPage.split(separator: "/").last.map(String.init))
            let refused = try await browser.post(benPage + "/relationships", form: ["of_contact": annaID])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Choose the kind of relationship."), refused.text)
            XCTAssertTrue(refused.text.contains(#"<option value="\#(annaID)" selected>"#), "the choice stays")
            let none = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(none, 0)

            let added = try await browser.post(
                benPage + "/relationships", form: ["of_contact": annaID, "relationship_type_id": "8"])
            XCTAssertEqual(added.status, .seeOther, added.text)
            XCTAssertEqual(added.headers.first(name: .location), benPage + "#relationships")
            ben = try await browser.get(benPage)
            XCTAssertTrue(
                ben.text.contains(#"<a href="\#(annaPage)">Anna Ames</a> <span class="hint">Ben’s parent</span>"#),
                ben.text)
            let anna = try await browser.get(annaPage)
            XCTAssertTrue(
                anna.text.contains(#"<a href="\#(benPage)">Ben Ames</a> <span class="hint">Anna’s child</span>"#),
                anna.text)

            // Deleted from Anna's page: gone from Ben's too.
            let api = try await app.apiAccount(email: "grace@example.com")
            let annas = try await app.send(.GET, "/api/contacts/\(annaID)/relationships", headers: api.bearer)
                .decoded(DataEnvelope<[RelationshipResource]>.self).data
            let deleted = try await browser.post("/relationships/\(annas[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            XCTAssertEqual(deleted.headers.first(name: .location), annaPage + "#relationships")
            ben = try await browser.get(benPage)
            XCTAssertTrue(ben.text.contains("No relationships yet."), ben.text)
            let left = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(left, 0)

            // Another account's contact has no such page.
            let stranger = WebClient(app: app)
            _ = try await stranger.register(email: "eve@example.com")
            let foreign = try await stranger.get(benPage + "/relationships/new")
            XCTAssertEqual(foreign.status, .notFound)
        }
    }
}
