import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Monica's `POST`/`DELETE /api/me/contact`: which contact is the owner themselves, shown as `/api/me`'s
/// `me_contact` and that contact's `is_me`, heard by sync, and set from the contact page.
final class MeContactTests: XCTestCase {
    private func isMe(_ app: Application, _ account: TestAccount, _ id: Int) async throws -> Bool {
        try await app.send(.GET, "/api/contacts/\(id)", headers: account.bearer)
            .decoded(DataEnvelope<ContactResource>.self).data.isMe
    }

    func testTheMeContactIsSetShownAndForgotten() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let before = try await app.send(.GET, "/api/sync?types=contact", headers: account.bearer)
                .decoded(SyncPullResource.self)

            let set = try await app.send(
                .POST, "/api/me/contact", headers: account.bearer, json: #"{"contact_id": "\#(ada.id)"}"#)
            XCTAssertEqual(set.status, .ok, "\(database): \(set.text)")
            XCTAssertEqual(set.text, #"["true"]"#)
            let me = try await app.send(.GET, "/api/me", headers: account.bearer)
            let meContact = try XCTUnwrap(try me.decoded(DataEnvelope<UserResource>.self).data.meContact, me.text)
            XCTAssertEqual(meContact.id, ada.id)
            XCTAssertTrue(me.text.contains(#""is_me":true"#), me.text)
            let adaIsMe = try await isMe(app, account, ada.id)
            let byronIsMe = try await isMe(app, account, byron.id)
            XCTAssertTrue(adaIsMe)
            XCTAssertFalse(byronIsMe)
            let heard = try await app.send(
                .GET, "/api/sync?types=contact&cursor=\(before.cursor)", headers: account.bearer
            ).decoded(SyncPullResource.self)
            XCTAssertEqual(heard.changes.map(\.id), [ada.id], "a client's copy hears that Ada is the owner")

            // Byron instead: both copies hear of it.
            _ = try await app.send(
                .POST, "/api/me/contact", headers: account.bearer, json: #"{"contact_id": \#(byron.id)}"#)
            let switched = try await app.send(
                .GET, "/api/sync?types=contact&cursor=\(heard.cursor)", headers: account.bearer
            ).decoded(SyncPullResource.self)
            XCTAssertEqual(Set(switched.changes.map(\.id)), [ada.id, byron.id])

            // Refused: no contact, another account's.
            let missing = try await app.send(.POST, "/api/me/contact", headers: account.bearer, json: "{}")
            XCTAssertEqual(missing.status, .unprocessableEntity, missing.text)
            XCTAssertEqual(
                try missing.decoded(ErrorEnvelope.self).error.message, .list(["The contact id field is required."]))
            let other = try await app.makeAccount(email: "grace@example.com")
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let foreign = try await app.send(
                .POST, "/api/me/contact", headers: account.bearer, json: #"{"contact_id": \#(grace.id)}"#)
            XCTAssertEqual(foreign.status, .notFound, foreign.text)
            let stillByron = try await isMe(app, account, byron.id)
            XCTAssertTrue(stillByron)

            let forgotten = try await app.send(.DELETE, "/api/me/contact", headers: account.bearer)
            XCTAssertEqual(forgotten.text, #"["true"]"#)
            let noLonger = try await isMe(app, account, byron.id)
            XCTAssertFalse(noLonger)
            let after = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertTrue(after.text.contains(#""me_contact":null"#), after.text)

            // A deleted "me" contact is forgotten.
            _ = try await app.send(
                .POST, "/api/me/contact", headers: account.bearer, json: #"{"contact_id": \#(ada.id)}"#)
            _ = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            let gone = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertTrue(gone.text.contains(#""me_contact":null"#), gone.text)
        }
    }

    func testThisIsMeOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Ada"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(">This is me</button>"), "\(database): \(detail.text)")
            XCTAssertFalse(detail.text.contains(#"<p class="badge">You</p>"#))
            let set = try await browser.post(page + "/me", form: ["is_me": "1"])
            XCTAssertEqual(set.status, .seeOther, set.text)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"<p class="badge">You</p>"#), detail.text)
            XCTAssertTrue(detail.text.contains(">This is not me</button>"))
            _ = try await browser.post(page + "/me", form: ["is_me": "0"])
            detail = try await browser.get(page)
            XCTAssertFalse(detail.text.contains(#"<p class="badge">You</p>"#))
        }
    }
}
