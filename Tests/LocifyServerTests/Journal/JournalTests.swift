import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/journal` and the journal page: Monica's entry, validation, ownership, the sync feed.
final class JournalTests: XCTestCase {
    func testAnEntrysShapeMatchesMonicasKeyForKeyAndUpdatesKeepWhatTheyLeaveOut() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let made = try await app.send(
                .POST, "/api/journal", headers: account.bearer,
                json: #"{"title": " Lyon ", "post": "Climbed all day.\nTired.", "unknown": 1}"#)
            XCTAssertEqual(made.status, .created, "\(database): \(made.text)")
            let entry = try made.decoded(DataEnvelope<JournalEntryResource>.self).data
            XCTAssertEqual(
                made.text,
                #"{"data":{"id":\#(entry.id),"uuid":"\#(entry.uuid)","object":"entry","title":"Lyon","#
                    + #""post":"Climbed all day.\nTired.","date":"2024-05-04T10:06:05Z","#
                    + #""url":"http://127.0.0.1:8080/api/journal/\#(entry.id)","account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}}"#)

            clock.advance(by: 3600)
            let second = try await app.createdID(by: account, "/api/journal", #"{"title": "Berlin", "post": "Rain."}"#)
            let updated = try await app.send(
                .PUT, "/api/journal/\(entry.id)", headers: account.bearer, json: #"{"post": "Climbed half a day."}"#)
            XCTAssertEqual(updated.status, .ok, updated.text)
            let changed = try updated.decoded(DataEnvelope<JournalEntryResource>.self).data
            XCTAssertEqual(changed.title, "Lyon", "kept")
            XCTAssertEqual(changed.post, "Climbed half a day.")
            XCTAssertEqual(changed.date, "2024-05-04T10:06:05Z", "the day it was written")
            XCTAssertEqual(changed.updatedAt, "2024-05-04T11:06:05Z")

            let oldestFirst = try await app.send(.GET, "/api/journal", headers: account.bearer)
            XCTAssertEqual(
                try oldestFirst.decoded(PageResource<JournalEntryResource>.self).data.map(\.id), [entry.id, second])
            let newestFirst = try await app.send(.GET, "/api/journal?sort=-created_at", headers: account.bearer)
            XCTAssertEqual(
                try newestFirst.decoded(PageResource<JournalEntryResource>.self).data.map(\.id), [second, entry.id])

            let deleted = try await app.send(.DELETE, "/api/journal/\(second)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(second)}"#)
            let gone = try await app.send(.GET, "/api/journal/\(second)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            XCTAssertEqual(gone.errorCode, 31)
        }
    }

    func testBadEntriesAreRefusedAndAnotherAccountsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let refused = try await app.send(.POST, "/api/journal", headers: account.bearer, json: #"{"title": "  "}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): \(refused.text)")
            XCTAssertEqual(refused.errorCode, 32)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list(["Give the entry a title.", "Write the entry."]))
            let long = String(repeating: "x", count: JournalEntryDraft.maximumTitleLength + 1)
            let tooLong = try await app.send(
                .POST, "/api/journal", headers: account.bearer, json: #"{"title": "\#(long)", "post": "p"}"#)
            XCTAssertEqual(
                try tooLong.decoded(ErrorEnvelope.self).error.message, .list(["Title must be at most 255 characters."]))
            let notText = try await app.send(
                .POST, "/api/journal", headers: account.bearer, json: #"{"title": ["a"], "post": "p"}"#)
            XCTAssertEqual(notText.status, .unprocessableEntity)
            let none = try await app.count(JournalEntriesTable.self)
            XCTAssertEqual(none, 0)

            // A post of a million characters fits, though its body is over the standard 1 MB; one more does not.
            let million = String(repeating: "é", count: JournalEntryDraft.maximumPostLength)
            let big = try await app.send(
                .POST, "/api/journal", headers: account.bearer, json: #"{"title": "Long", "post": "\#(million)"}"#)
            XCTAssertEqual(big.status, .created, String(big.text.prefix(300)))
            let tooBig = try await app.send(
                .POST, "/api/journal", headers: account.bearer, json: #"{"title": "Long", "post": "\#(million)é"}"#)
            XCTAssertEqual(
                try tooBig.decoded(ErrorEnvelope.self).error.message,
                .list(["Entry must be at most 1000000 characters."]))
            let bigID = try XCTUnwrap((try big.json()["data"] as? [String: Any])?["id"] as? Int)
            _ = try await app.send(.DELETE, "/api/journal/\(bigID)", headers: account.bearer)

            // A list parameter sent twice is refused rather than one of them guessed.
            for path in ["/api/journal?page=1&page=2", "/api/notes?limit=5&limit=6", "/api/contacts?sort=a&sort=b"] {
                let repeated = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(repeated.status, .unprocessableEntity, "\(path): \(repeated.text)")
                XCTAssertEqual(repeated.errorCode, 32)
            }

            let id = try await app.createdID(by: account, "/api/journal", #"{"title": "Mine", "post": "Private."}"#)
            let emptied = try await app.send(
                .PUT, "/api/journal/\(id)", headers: account.bearer, json: #"{"post": ""}"#)
            XCTAssertEqual(emptied.status, .unprocessableEntity)
            for (method, json) in [(HTTPMethod.GET, nil), (.PUT, #"{"title": "Theirs"}"#), (.DELETE, nil)] {
                let response = try await app.send(method, "/api/journal/\(id)", headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(method)")
                XCTAssertEqual(response.errorCode, 31)
            }
            let theirs = try await app.send(.GET, "/api/journal", headers: other.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<JournalEntryResource>.self).meta.total, 0)
            let kept = try await app.send(.GET, "/api/journal/\(id)", headers: account.bearer)
            let entry = try kept.decoded(DataEnvelope<JournalEntryResource>.self).data
            XCTAssertEqual([entry.title, entry.post], ["Mine", "Private."])
        }
    }

    func testEntriesTravelInTheSyncFeedBothWays() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let uuid = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [{"id": 1, "type": "entry", "op": "create", "uuid": "\#(uuid)",
                     "fields": {"title": "On the train", "post": "Written offline."}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            XCTAssertEqual(try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied])
            let pulled = try await app.send(.GET, "/api/sync?types=entry", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            guard let change = feed.changes.first, case .journalEntry(let record) = change.data else {
                return XCTFail("no entry: \(pulled.text)")
            }
            XCTAssertEqual(change.type, "entry")
            XCTAssertEqual(record.uuid, uuid)
            let shown = try await app.send(.GET, "/api/journal/\(record.id)", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<JournalEntryResource>.self).data, record)
            let deleted = try await app.send(.DELETE, "/api/journal/\(record.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let after = try await app.send(.GET, "/api/sync?types=entry&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [uuid])
        }
    }

    func testTheJournalPage() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let reminders = try await browser.get("/reminders")
            XCTAssertTrue(reminders.text.contains(#"<a href="/journal">Journal</a>"#), "\(database)")
            var page = try await browser.get("/journal")
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.text.contains("Nothing written yet"))

            let refused = try await browser.post("/journal", form: ["title": "Kept title", "post": " "])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("Write the entry."), refused.text)
            XCTAssertTrue(refused.text.contains(#"value="Kept title""#), "what was typed stays")

            let saved = try await browser.post("/journal", form: ["title": "Lyon", "post": "Climbed.\nTired."])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            clock.advance(by: 86_400)
            try await browser.post("/journal", form: ["title": "Berlin", "post": "Rain."])
            page = try await browser.get("/journal")
            XCTAssertTrue(page.text.contains("2 entries"))
            let newer = try XCTUnwrap(page.text.range(of: "<h3>Berlin</h3>"))
            let older = try XCTUnwrap(page.text.range(of: "<h3>Lyon</h3>"))
            XCTAssertLessThan(newer.lowerBound, older.lowerBound, "newest first")
            XCTAssertTrue(page.text.contains("Written 4 May 2024"))

            let api = try await app.apiAccount(email: "grace@example.com")
            let entries = try await app.send(.GET, "/api/journal", headers: api.bearer)
                .decoded(PageResource<JournalEntryResource>.self).data
            let lyon = try XCTUnwrap(entries.first { $0.title == "Lyon" })
            XCTAssertEqual(lyon.post, "Climbed.\nTired.")
            let badEdit = try await browser.post("/journal/\(lyon.id)", form: ["title": "", "post": "x"])
            XCTAssertEqual(badEdit.status, .unprocessableEntity)
            XCTAssertTrue(badEdit.text.contains(#"id="entry-\#(lyon.id)-title-error""#), badEdit.text)
            let edited = try await browser.post("/journal/\(lyon.id)", form: ["title": "Lyon again", "post": "x"])
            XCTAssertEqual(edited.status, .seeOther)
            let deleted = try await browser.post("/journal/\(lyon.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            page = try await browser.get("/journal")
            XCTAssertTrue(page.text.contains("“Lyon again” was deleted."))
            XCTAssertTrue(page.text.contains("1 entry"))

            let stranger = WebClient(app: app)
            _ = try await stranger.register(email: "eve@example.com")
            let berlin = try XCTUnwrap(entries.first { $0.title == "Berlin" })
            let foreign = try await stranger.post("/journal/\(berlin.id)/delete", form: [:])
            XCTAssertEqual(foreign.status, .notFound)
            let left = try await app.count(JournalEntriesTable.self)
            XCTAssertEqual(left, 1)
        }
    }
}
