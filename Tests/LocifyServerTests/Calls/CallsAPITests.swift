import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/calls` and `/api/contacts/{id}/calls`: Monica's call, the contact's `last_called` and
/// `number_of_calls`, the yearly statistics, and calls in the sync feed.
final class CallsAPITests: XCTestCase {
    private func call(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/calls",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> CallResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<CallResource>.self, file: file, line: line).data
    }

    func testACallsShapeMatchesMonicasKeyForKeyAndShowsOnItsContact() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let response = try await app.send(
                .POST, "/api/calls", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(ada.id), "called_at": "2024-05-01 18:30:00", "content": "  Talked about the trip. ",
                     "contact_called": true, "emotions": [24, 1, 24]}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<CallResource>.self).data
            let contact = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            XCTAssertTrue(
                contact.hasPrefix(#"{"id":\#(ada.id),"uuid":"\#(ada.uuid.lowercasedText)","object":"contact""#), contact
            )
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"call","called_at":"2024-05-01T18:30:00Z","#
                    + #""content":"Talked about the trip.","contact_called":true,"emotions":[{"id":24,"object":"emotion","#
                    + #""name":"joy"},{"id":1,"object":"emotion","name":"adoration"}],"#
                    + #""url":"http://127.0.0.1:8080/api/calls/\#(made.id)","account":{"id":\#(account.id)},"#
                    + #""contact":\#(contact),"created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)

            // The contact's last call and count; a later call through the contact's own route, in ISO 8601.
            clock.advance(by: 60)
            let later = try await call(
                app, account, #"{"called_at": "2025-02-03T09:00:00+01:00"}"#, path: "/api/contacts/\(ada.id)/calls")
            XCTAssertEqual(later.calledAt, "2025-02-03T08:00:00Z")
            XCTAssertNil(later.content)
            XCTAssertFalse(later.contactCalled)
            XCTAssertEqual(later.emotions, [])
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            let contactData = try XCTUnwrap(try shown.json()["data"] as? [String: Any])
            XCTAssertEqual(contactData["last_called"] as? String, "2025-02-03T08:00:00Z")
            let statistics = try XCTUnwrap(contactData["statistics"] as? [String: Any])
            XCTAssertEqual(statistics["number_of_calls"] as? Int, 2)
            let listed = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertTrue(listed.text.contains(#""last_called":"2025-02-03T08:00:00Z""#), listed.text)

            // Lists: newest call first, whatever `sort` says; the account's calls by year in `meta.statistics`.
            let other = try await app.makeContact(for: account, ContactDraft(firstName: "Ben"))
            _ = try await call(app, account, #"{"contact_id": \#(other.id), "called_at": "2024-12-31"}"#)
            let all = try await app.send(.GET, "/api/calls?sort=created_at", headers: account.bearer)
            XCTAssertEqual(all.status, .ok, all.text)
            let page = try all.decoded(PageResource<CallResource>.self)
            XCTAssertEqual(page.data.map(\.calledAt), ["2025-02-03T08:00:00Z", "2024-12-31T00:00:00Z", made.calledAt])
            XCTAssertTrue(all.text.hasSuffix(#","total":3,"statistics":{"2025":1,"2024":2}}}"#), all.text)
            let adas = try await app.send(.GET, "/api/contacts/\(ada.id)/calls", headers: account.bearer)
            let adasPage = try adas.decoded(PageResource<CallResource>.self)
            XCTAssertEqual(adasPage.data.map(\.id), [later.id, made.id])
            XCTAssertEqual(adasPage.meta.statistics?.years.map(\.count), [1, 2], "the whole account's, as Monica")
            let filtered = try await app.send(.GET, "/api/calls?contact_id=\(other.id)", headers: account.bearer)
            XCTAssertEqual(try filtered.decoded(PageResource<CallResource>.self).data.count, 1)

            // No calls at all: PHP's empty array.
            let newcomer = try await app.makeAccount(email: "new@example.com")
            let none = try await app.send(.GET, "/api/calls", headers: newcomer.bearer)
            XCTAssertTrue(none.text.hasSuffix(#","total":0,"statistics":[]}}"#), none.text)
        }
    }

    func testLongContentAndEarlyYearsFitTheirDescription() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            // The longest content, each character beyond the BMP and sent as escapes: 1.2 MB of JSON.
            let escaped = String(repeating: #"\ud83d\ude00"#, count: CallDraft.maximumContentLength)
            let long = try await app.send(
                .POST, "/api/contacts/\(ada.id)/calls", headers: account.bearer,
                json: #"{"called_at": "0987-06-01", "content": "\#(escaped)"}"#)
            XCTAssertEqual(long.status, .created, "\(database): \(long.text.prefix(200))")
            let notes = try await app.send(
                .POST, "/api/notes", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "body": "\#(escaped)"}"#)
            XCTAssertEqual(notes.status, .created, "\(database): \(notes.text.prefix(200))")
            let list = try await app.send(.GET, "/api/calls", headers: account.bearer)
            XCTAssertTrue(list.text.hasSuffix(#""statistics":{"0987":1}}}"#), String(list.text.suffix(200)))
            let decoded = try list.decoded(PageResource<CallResource>.self)
            XCTAssertEqual(decoded.meta.statistics?.years.map(\.year), [987])
        }
    }

    func testAnUpdateKeepsWhatItLeavesOutAndADeleteIsGone() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let made = try await call(
                app, account,
                #"{"contact_id": \#(ada.id), "called_at": "2024-05-01", "content": "Trip", "emotions": [3]}"#)
            clock.advance(by: 3600)
            let moved = try await app.send(
                .PUT, "/api/calls/\(made.id)", headers: account.bearer,
                json: #"{"contact_called": "1", "emotions": [], "contact_id": 999999}"#)
            XCTAssertEqual(moved.status, .ok, "\(database): \(moved.text)")
            let updated = try moved.decoded(DataEnvelope<CallResource>.self).data
            XCTAssertEqual(updated.content, "Trip")
            XCTAssertEqual(updated.calledAt, "2024-05-01T00:00:00Z")
            XCTAssertTrue(updated.contactCalled)
            XCTAssertEqual(updated.emotions, [])
            XCTAssertEqual(updated.contactID, ada.id, "a call stays with its contact")
            XCTAssertEqual(updated.updatedAt, "2024-05-04T11:06:05Z")

            let deleted = try await app.send(.DELETE, "/api/calls/\(made.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(made.id)}"#)
            let gone = try await app.send(.GET, "/api/calls/\(made.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertTrue(shown.text.contains(#""last_called":null"#), shown.text)
        }
    }

    func testBadCallsAreRefusedWholeAndNothingSaved() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let cases: [(String, [String])] = [
                ("{}", ["Choose the contact this call is about.", "The date of the call is required."]),
                (
                    #"{"contact_id": \#(ada.id), "called_at": "last Tuesday"}"#,
                    ["The date of the call is not a valid date."]
                ),
                (
                    #"{"contact_id": \#(ada.id), "called_at": "2024-05-01", "emotions": [1, 135]}"#,
                    ["The selected emotion 135 is invalid."]
                ),
                (
                    #"{"contact_id": \#(ada.id), "called_at": "2024-05-01", "emotions": "joy"}"#,
                    ["Emotions must be a list of ids."]
                ),
                (
                    #"{"contact_id": \#(ada.id), "called_at": "2024-05-01", "contact_called": "perhaps"}"#,
                    ["Who called must be true or false."]
                ),
            ]
            for (json, messages) in cases {
                let response = try await app.send(.POST, "/api/calls", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(json): \(response.text)")
                XCTAssertEqual(response.errorCode, 32, json)
                let envelope = try response.decoded(ErrorEnvelope.self)
                XCTAssertEqual(envelope.error.message, .list(messages), json)
            }
            let long = String(repeating: "a", count: CallDraft.maximumContentLength + 1)
            let tooLong = try await app.send(
                .POST, "/api/calls", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "called_at": "2024-05-01", "content": "\#(long)"}"#)
            XCTAssertEqual(tooLong.status, .unprocessableEntity)
            let made = try await call(app, account, #"{"contact_id": \#(ada.id), "called_at": "2024-05-01"}"#)
            let badUpdate = try await app.send(
                .PUT, "/api/calls/\(made.id)", headers: account.bearer, json: #"{"called_at": ""}"#)
            XCTAssertEqual(badUpdate.status, .unprocessableEntity, badUpdate.text)
            let count = try await app.count(CallsTable.self)
            XCTAssertEqual(count, 1, "only the good call")
            let kept = try await app.send(.GET, "/api/calls/\(made.id)", headers: account.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<CallResource>.self).data.calledAt, "2024-05-01T00:00:00Z")
        }
    }

    func testAnotherAccountsCallsAreNotFoundAndUntouched() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let made = try await call(app, account, #"{"contact_id": \#(ada.id), "called_at": "2024-05-01"}"#)
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/calls/\(made.id)", nil),
                (.PUT, "/api/calls/\(made.id)", #"{"content": "Mine now"}"#),
                (.DELETE, "/api/calls/\(made.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/calls", nil),
                (.POST, "/api/calls", #"{"contact_id": \#(ada.id), "called_at": "2024-05-01"}"#),
                (.POST, "/api/contacts/\(ada.id)/calls", #"{"called_at": "2024-05-01"}"#),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path): \(response.text)")
                XCTAssertEqual(response.errorCode, 31)
            }
            let theirs = try await app.send(.GET, "/api/calls", headers: other.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<CallResource>.self).data.count, 0)
            let count = try await app.count(CallsTable.self)
            XCTAssertEqual(count, 1)
            let kept = try await app.send(.GET, "/api/calls/\(made.id)", headers: account.bearer)
            XCTAssertNil(try kept.decoded(DataEnvelope<CallResource>.self).data.content)
        }
    }

    func testCallsTravelInTheSyncFeedAndGoWithTheirContact() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let callUUID = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [{"id": 1, "type": "call", "op": "create", "uuid": "\#(callUUID)",
                     "fields": {"contact_id": \#(ada.id), "called_at": "2024-05-01T08:00:00Z", "content": "From the phone"}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            let answer = try pushed.decoded(SyncPushAnswerResource.self)
            XCTAssertEqual(answer.results.map(\.status), [.applied], pushed.text)

            let pulled = try await app.send(.GET, "/api/sync?types=call", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["call"])
            guard let change = feed.changes.first, case .call(let record) = change.data else {
                return XCTFail("not a call: \(pulled.text)")
            }
            XCTAssertEqual(record.uuid, callUUID)
            XCTAssertEqual(record.content, "From the phone")
            let shown = try await app.send(.GET, "/api/calls/\(record.id)", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<CallResource>.self).data, record, "as its own route")

            let deleted = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let after = try await app.send(
                .GET, "/api/sync?types=call&cursor=\(feed.cursor)", headers: account.bearer)
            let deletions = try after.decoded(SyncPullResource.self).deletions
            XCTAssertEqual(deletions.map(\.type), ["call"])
            XCTAssertEqual(deletions.map(\.uuid), [callUUID])
            let count = try await app.count(CallsTable.self)
            XCTAssertEqual(count, 0)
        }
    }
}
