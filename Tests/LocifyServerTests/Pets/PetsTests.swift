import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/pets` and `/api/contacts/{id}/pets`: Monica's pet with its fixed categories, moving between
/// contacts, validation, ownership, the sync feed, and the contact page's Pets.
final class PetsTests: XCTestCase {
    func testAPetsShapeMatchesMonicasAndItMovesBetweenContacts() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let response = try await app.send(
                .POST, "/api/pets", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "pet_category_id": "4", "name": " Boatswain "}"#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<PetResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"pet","name":"Boatswain","#
                    + #""pet_category":{"id":4,"object":"pet_category","name":"dog","is_common":true},"#
                    + #""account":{"id":\#(account.id)},"contact":\#(adaJSON),"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)
            let nameless = try await app.send(
                .POST, "/api/contacts/\(ada.id)/pets", headers: account.bearer, json: #"{"pet_category_id": 10}"#)
            XCTAssertEqual(nameless.status, .created, nameless.text)
            XCTAssertTrue(
                nameless.text.contains(
                    #""name":null,"pet_category":{"id":10,"object":"pet_category","name":"small_animal","is_common":false}"#
                ), nameless.text)

            // Moved to Byron, its name kept.
            clock.advance(by: 60)
            let moved = try await app.send(
                .PUT, "/api/pets/\(made.id)", headers: account.bearer, json: #"{"contact_id": \#(byron.id)}"#)
            XCTAssertEqual(moved.status, .ok, moved.text)
            let updated = try moved.decoded(DataEnvelope<PetResource>.self).data
            XCTAssertEqual(updated.contactID, byron.id)
            XCTAssertEqual(updated.name, "Boatswain")
            let byrons = try await app.send(.GET, "/api/contacts/\(byron.id)/pets", headers: account.bearer)
            XCTAssertEqual(try byrons.decoded(PageResource<PetResource>.self).data.map(\.id), [made.id])
            let all = try await app.send(.GET, "/api/pets", headers: account.bearer)
            XCTAssertEqual(try all.decoded(PageResource<PetResource>.self).meta.total, 2)

            // Refused whole: an unknown kind, no kind, a name too long; another account's ids are not found.
            let cases: [(String, [String])] = [
                (#"{"contact_id": \#(ada.id), "pet_category_id": 12}"#, ["The selected pet category id is invalid."]),
                ("{}", ["Choose the contact this pet is about.", "Choose the kind of animal."]),
                (
                    #"{"contact_id": \#(ada.id), "pet_category_id": 3, "name": "\#(String(repeating: "a", count: 256))"}"#,
                    ["Name must be at most 255 characters."]
                ),
            ]
            for (json, messages) in cases {
                let refused = try await app.send(.POST, "/api/pets", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
                XCTAssertEqual(try refused.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            let other = try await app.makeAccount(email: "grace@example.com")
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let stolen = try await app.send(
                .PUT, "/api/pets/\(made.id)", headers: account.bearer, json: #"{"contact_id": \#(grace.id)}"#)
            XCTAssertEqual(stolen.status, .notFound, stolen.text)
            for (method, path) in [(HTTPMethod.GET, "/api/pets/\(made.id)"), (.DELETE, "/api/pets/\(made.id)")] {
                let foreign = try await app.send(method, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let count = try await app.count(PetsTable.self)
            XCTAssertEqual(count, 2)

            // The sync feed carries them, and a contact's pets go with it.
            let pulled = try await app.send(.GET, "/api/sync?types=pet", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["pet", "pet"], pulled.text)
            _ = try await app.send(.DELETE, "/api/contacts/\(byron.id)", headers: account.bearer)
            let after = try await app.send(.GET, "/api/sync?types=pet&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [made.uuid])
        }
    }

    func testPetsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="pets-heading" id="pets""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No pets."))
            XCTAssertTrue(
                detail.text.contains(#"<option value="" selected>Choose</option><option value="3">Cat</option>"#))

            let refused = try await browser.post(page + "/pets", form: ["name": "Kept as typed"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Choose the kind of animal."), refused.text)
            XCTAssertTrue(refused.text.contains(#"value="Kept as typed""#), "what was typed stays")

            let added = try await browser.post(page + "/pets", form: ["pet_category_id": "3", "name": "Pierre"])
            XCTAssertEqual(added.status, .seeOther, added.text)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<span>Pierre (cat)</span>"), detail.text)

            let api = try await app.apiAccount(email: "grace@example.com")
            let pets = try await app.send(.GET, "/api/pets", headers: api.bearer)
                .decoded(PageResource<PetResource>.self).data
            let deleted = try await browser.post("/pets/\(pets[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(PetsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
