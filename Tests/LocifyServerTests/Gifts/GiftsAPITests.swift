import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/gifts` and `/api/contacts/{id}/gifts`: Monica's gift with its recipient and price, the contact's
/// `number_of_gifts`, validation, ownership and the sync feed.
final class GiftsAPITests: XCTestCase {
    private func gift(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/gifts",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> GiftResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<GiftResource>.self, file: file, line: line).data
    }

    func testAGiftsShapeMatchesMonicasAndCountsOnItsContact() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let response = try await app.send(
                .POST, "/api/gifts", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(ada.id), "name": " Difference engine ", "status": "offered", "amount": 99.9,
                     "currency": "GBP", "date": "2024-05-01", "url": "https://example.com/engine",
                     "comment": "For her birthday", "recipient_id": \#(byron.id)}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<GiftResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            let byronJSON = String(
                decoding: try OrderedJSONEncoder().encodedBytes(try XCTUnwrap(made.recipient)), as: UTF8.self)
            XCTAssertTrue(byronJSON.contains(#""first_name":"Byron""#), byronJSON)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"gift","name":"Difference engine","#
                    + #""comment":"For her birthday","url":"https://example.com/engine","amount":"99.90","#
                    + #""value":"99.90","amount_with_currency":"£99.90","status":"offered","date":"2024-05-01","#
                    + #""recipient":\#(byronJSON),"photos":[],"contact":\#(adaJSON),"account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","currency":"GBP","#
                    + #""contact_id":\#(ada.id)}}"#)

            // An idea without a price, through the contact's own route: Monica's empty value.
            clock.advance(by: 60)
            let idea = try await gift(
                app, account, #"{"name": "Books", "status": "idea"}"#, path: "/api/contacts/\(ada.id)/gifts")
            XCTAssertNil(idea.amount)
            XCTAssertEqual(idea.value, "")
            XCTAssertEqual(idea.amountWithCurrency, "")
            XCTAssertNil(idea.recipient)
            XCTAssertNil(idea.date)
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertTrue(shown.text.contains(#""number_of_gifts":2"#), shown.text)

            // An update keeps what it leaves out; a recipient can be taken away.
            let changed = try await app.send(
                .PUT, "/api/gifts/\(made.id)", headers: account.bearer,
                json: #"{"status": "received", "recipient_id": null}"#)
            XCTAssertEqual(changed.status, .ok, changed.text)
            let updated = try changed.decoded(DataEnvelope<GiftResource>.self).data
            XCTAssertEqual(updated.status, "received")
            XCTAssertNil(updated.recipient)
            XCTAssertEqual(updated.amountWithCurrency, "£99.90")
            XCTAssertEqual(updated.date, "2024-05-01")

            // A deleted recipient reads as none.
            let onByron = try await gift(
                app, account,
                #"{"contact_id": \#(ada.id), "name": "Pen", "status": "idea", "recipient_id": \#(byron.id)}"#)
            XCTAssertNotNil(onByron.recipient)
            _ = try await app.send(.DELETE, "/api/contacts/\(byron.id)", headers: account.bearer)
            let after = try await app.send(.GET, "/api/gifts/\(onByron.id)", headers: account.bearer)
            XCTAssertNil(try after.decoded(DataEnvelope<GiftResource>.self).data.recipient)

            let list = try await app.send(.GET, "/api/gifts?contact_id=\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<GiftResource>.self).data.count, 3)
            // The smallest Int once stopped the server (its magnitude overflowed); it names no contact.
            let smallest = try await app.send(
                .GET, "/api/gifts?contact_id=-9223372036854775808", headers: account.bearer)
            XCTAssertEqual(smallest.status, .notFound, "a contact_id no contact has: \(smallest.text)")
            let deleted = try await app.send(.DELETE, "/api/gifts/\(made.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(made.id)}"#)
        }
    }

    func testBadGiftsAreRefusedWholeAndAnotherAccountsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "Choose the contact this gift is about.", "The name of the gift is required.",
                        "The status of the gift is required.",
                    ]
                ),
                (
                    #"{"contact_id": \#(ada.id), "name": "Pen", "status": "wished", "date": "someday", "amount": 1e300}"#,
                    [
                        "The status must be idea, offered or received.",
                        "The amount must be between 0 and 999,999,999,999.",
                        "The date of the gift is not a valid date.",
                    ]
                ),
            ]
            for (json, messages) in cases {
                let response = try await app.send(.POST, "/api/gifts", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(json): \(response.text)")
                XCTAssertEqual(try response.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            // Another account's contact as the recipient is not found.
            let foreignRecipient = try await app.send(
                .POST, "/api/gifts", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "name": "Pen", "status": "idea", "recipient_id": \#(grace.id)}"#)
            XCTAssertEqual(foreignRecipient.status, .notFound, foreignRecipient.text)
            let made = try await gift(app, account, #"{"contact_id": \#(ada.id), "name": "Pen", "status": "idea"}"#)
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/gifts/\(made.id)", nil),
                (.PUT, "/api/gifts/\(made.id)", #"{"name": "Mine"}"#),
                (.DELETE, "/api/gifts/\(made.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/gifts", nil),
                (.POST, "/api/gifts", #"{"contact_id": \#(ada.id), "name": "Pen", "status": "idea"}"#),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path): \(response.text)")
            }
            let count = try await app.count(GiftsTable.self)
            XCTAssertEqual(count, 1, "only the good gift")
        }
    }

    func testGiftsTravelInTheSyncFeed() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let uuid = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [{"id": 1, "type": "gift", "op": "create", "uuid": "\#(uuid)",
                     "fields": {"contact_id": \#(ada.id), "name": "Scarf", "status": "idea"}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            XCTAssertEqual(try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied])
            let pulled = try await app.send(.GET, "/api/sync?types=gift", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            guard let change = feed.changes.first, case .gift(let record) = change.data else {
                return XCTFail("not a gift: \(pulled.text)")
            }
            XCTAssertEqual(record.name, "Scarf")
            _ = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            let after = try await app.send(.GET, "/api/sync?types=gift&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [uuid])
        }
    }
}
