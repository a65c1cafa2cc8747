import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `GET /api/sync`: a full download paged exactly, then only what changed, with the records as their own
/// routes answer them; bad input refused; a cursor past the horizon answered 410.
final class SyncFeedTests: XCTestCase {
    private func pull(
        _ app: Application, _ account: TestAccount, cursor: String? = nil, limit: Int? = nil, types: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SyncPullResource {
        var query: [String] = []
        if let cursor { query.append("cursor=\(cursor)") }
        if let limit { query.append("limit=\(limit)") }
        if let types { query.append("types=\(types)") }
        let response = try await app.send(
            .GET, "/api/sync" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), headers: account.bearer)
        XCTAssertEqual(response.status, .ok, response.text, file: file, line: line)
        // The cursor says what a client has; a page is not digested for an ETag.
        XCTAssertNil(response.headers.first(name: .eTag), file: file, line: line)
        return try response.decoded(SyncPullResource.self, file: file, line: line)
    }

    /// Pulls from `cursor` until the feed says there is no more; every page and the last cursor.
    private func pullAll(
        _ app: Application, _ account: TestAccount, from cursor: String? = nil, limit: Int, types: String? = nil
    ) async throws -> (pages: [SyncPullResource], cursor: String) {
        var pages: [SyncPullResource] = []
        var next = cursor
        repeat {
            let page = try await pull(app, account, cursor: next, limit: limit, types: types)
            XCTAssertLessThanOrEqual(page.changes.count + page.deletions.count, limit)
            pages.append(page)
            next = page.cursor
        } while pages.last?.hasMore == true && pages.count < 10_000
        return (pages, next ?? "")
    }

    func testAFullDownloadPagesThroughEverythingThenOnlyWhatChanged() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.createdID(
                by: account, "/api/contacts", #"{"first_name":"Ada","email":"ada@example.com"}"#)
            let address = try await app.createdID(
                by: account, "/api/contacts/\(ada)/addresses", #"{"city":"Berlin","country":"DEU"}"#)
            let note = try await app.createdID(by: account, "/api/contacts/\(ada)/notes", #"{"body":"Likes tea."}"#)
            let task = try await app.createdID(by: account, "/api/tasks", #"{"contact_id":\#(ada),"title":"Call"}"#)
            let reminder = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Rent","initial_date":"2030-01-31","frequency_type":"one_time"}"#)
            let tagged = try await app.send(
                .POST, "/api/contacts/\(ada)/setTags", headers: account.bearer, json: #"{"tags":["family"]}"#)
            XCTAssertEqual(tagged.status, .ok)
            // A new account's four categories, so category 1 is there.
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
            XCTAssertEqual(categories.status, .ok)
            let place = try await app.createdID(
                by: account, "/api/places", #"{"name":"Flore","latitude":48.85,"longitude":2.33,"category_id":1}"#)
            _ = try await app.createdID(by: other, "/api/contacts", #"{"first_name":"Someone else's"}"#)

            let (pages, cursor) = try await pullAll(app, account, limit: 3)
            let changes = pages.flatMap(\.changes)
            XCTAssertTrue(pages.dropLast().allSatisfy { $0.changes.count + $0.deletions.count == 3 }, "\(database)")
            let keys = changes.map { "\($0.type)/\($0.id)" }
            XCTAssertEqual(keys.count, Set(keys).count, "\(database): each record once")
            XCTAssertEqual(changes.map(\.revision), changes.map(\.revision).sorted(), "in revision order")
            let types = Set(changes.map(\.type))
            for type in [
                "contact", "address", "note", "task", "reminder", "tag", "contact_tag", "place", "category", "gender",
                "contactfield", "contactfieldtype",
            ] {
                XCTAssertTrue(types.contains(type), "\(database): the download has \(type)s")
            }
            XCTAssertFalse(
                changes.contains { $0.type == "contact" && $0.id != ada }, "\(database): another account's contact")
            // Each record as its own route answers it, whether the page holds its contact (read once for
            // the page, see `SharedContactReads`) or not.
            let onePage = try await pull(app, account, limit: 100).changes
            for (type, id, path) in [
                ("contact", ada, "/api/contacts/\(ada)"), ("address", address, "/api/addresses/\(address)"),
                ("note", note, "/api/notes/\(note)"), ("task", task, "/api/tasks/\(task)"),
                ("reminder", reminder, "/api/reminders/\(reminder)"), ("place", place, "/api/places/\(place)"),
            ] {
                let own = try await app.send(.GET, path, headers: account.bearer).decoded(
                    DataEnvelope<SyncRecord>.self)
                for paged in [changes, onePage] {
                    let change = try XCTUnwrap(paged.first { $0.type == type && $0.id == id }, "\(database) \(type)")
                    XCTAssertEqual(change.data, own.data, "\(database): \(type) as \(path) answers it")
                }
            }

            // Nothing new: an empty page, the same place.
            let quiet = try await pull(app, account, cursor: cursor)
            XCTAssertEqual(quiet.changes, [])
            XCTAssertEqual(quiet.deletions, [])
            XCTAssertFalse(quiet.hasMore)

            clock.advance(by: 60)
            let edited = try await app.send(
                .PUT, "/api/notes/\(note)", headers: account.bearer, json: #"{"body":"Likes green tea."}"#)
            XCTAssertEqual(edited.status, .ok)
            let deleted = try await app.send(.DELETE, "/api/contacts/\(ada)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let after = try await pullAll(app, account, from: cursor, limit: 100)
            let later = after.pages.flatMap(\.changes)
            XCTAssertEqual(later.map(\.type), [], "\(database): the edited note went with its contact")
            let gone = after.pages.flatMap(\.deletions)
            let expected: Set = [
                "contact/\(ada)", "address/\(address)", "note/\(note)", "task/\(task)", "reminder/\(reminder)",
            ]
            XCTAssertEqual(
                Set(gone.filter { !["contactfield", "contact_tag"].contains($0.type) }.map { "\($0.type)/\($0.id)" }),
                expected, "\(database)")
            XCTAssertEqual(gone.filter { $0.type == "contactfield" }.count, 1, "the e-mail field")
            XCTAssertEqual(gone.filter { $0.type == "contact_tag" }.count, 1, "the tag's link")
            XCTAssertTrue(gone.allSatisfy { $0.uuid != nil })
            let contactUUID = try XCTUnwrap(changes.first { $0.type == "contact" }?.uuid)
            XCTAssertEqual(gone.first { $0.type == "contact" }?.uuid, contactUUID)
        }
    }

    func testOneRevisionOfManyRecordsPagesExactly() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let places = PlaceService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            try await places.ensureDefaultCategories()
            let start = try await pullAll(app, account, limit: 1_000).cursor
            let fields = (0..<250).map { index in
                (
                    fields: PlaceFields(
                        name: "Place \(index)",
                        coordinate: Coordinate(latitude: 48 + Double(index) / 1_000, longitude: 2)),
                    categoryID: 1
                )
            }
            // One write, as an import's batch: 250 places in one revision.
            let ids = try await app.db.write(ownedBy: account.id, at: clock.now) { database in
                try await PlaceService(database: database, ownerID: account.id, dependencies: app.dependencies)
                    .insert(fields)
            }
            let (pages, _) = try await pullAll(app, account, from: start, limit: 7)
            let changes = pages.flatMap(\.changes)
            XCTAssertEqual(changes.map(\.id), ids.sorted(), "\(database): every place once, in order")
            XCTAssertEqual(Set(changes.map(\.revision)).count, 1, "one revision")
            XCTAssertEqual(pages.count, 36, "\(database): 35 full pages and the rest")
        }
    }

    func testATypeFilterAndBadInput() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            // A new account's four categories, so category 1 is there.
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
            XCTAssertEqual(categories.status, .ok)
            let place = try await app.createdID(
                by: account, "/api/places", #"{"name":"Flore","latitude":48.85,"longitude":2.33,"category_id":1}"#)
            let only = try await pullAll(app, account, limit: 50, types: "place,category")
            XCTAssertEqual(
                Set(only.pages.flatMap(\.changes).map(\.type)), ["place", "category"], "\(database)")
            XCTAssertTrue(only.pages.flatMap(\.changes).contains { $0.id == place })
            _ = try await app.send(.DELETE, "/api/contacts/\(ada)", headers: account.bearer)
            let filtered = try await pull(app, account, cursor: only.cursor, types: "place")
            XCTAssertEqual(filtered.deletions, [], "\(database): a contact's deletion is not a place's")

            for (query, field) in [
                ("cursor=nonsense", "cursor"), ("cursor=Mi4xLjIuMw", "cursor"), ("limit=0", "limit"),
                ("limit=1001", "limit"), ("limit=ten", "limit"), ("types=contact,planet", "types"),
            ] {
                let refused = try await app.send(.GET, "/api/sync?\(query)", headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(query): \(refused.text)")
                XCTAssertEqual(refused.errorCode, 32, query)
                XCTAssertTrue(refused.text.contains(field == "types" ? "planet" : field), refused.text)
            }
            let anonymous = try await app.send(.GET, "/api/sync")
            XCTAssertEqual(anonymous.status, .unauthorized)
        }
    }

    func testACursorPastTheHorizonAsksForAFullDownload() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let grace = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Grace"}"#)
            let old = try await pullAll(app, account, limit: 100).cursor
            _ = try await app.send(.DELETE, "/api/contacts/\(ada)", headers: account.bearer)
            clock.advance(by: 91 * 86_400)
            let retention = TombstoneRetention(database: app.db, retention: 90 * 86_400)
            let purged = try await retention.purge(now: clock.now)
            XCTAssertEqual(purged, 1, "\(database)")
            let tooOld = try await app.send(.GET, "/api/sync?cursor=\(old)", headers: account.bearer)
            XCTAssertEqual(tooOld.status, .gone, "\(database)")
            XCTAssertEqual(tooOld.errorCode, 410)
            XCTAssertTrue(tooOld.text.contains("download everything again"), tooOld.text)
            let ahead = try await app.send(.GET, "/api/sync?cursor=1.999999.0.0", headers: account.bearer)
            XCTAssertEqual(ahead.status, .conflict, "\(database): a cursor ahead of the data (a restored backup)")
            XCTAssertTrue(ahead.text.contains("ahead of everything"), ahead.text)
            // Starting again works, and from there on the feed answers.
            let fresh = try await pullAll(app, account, limit: 100)
            XCTAssertEqual(fresh.pages.flatMap(\.changes).filter { $0.type == "contact" }.map(\.id), [grace])
            _ = try await app.send(.DELETE, "/api/contacts/\(grace)", headers: account.bearer)
            let after = try await pull(app, account, cursor: fresh.cursor)
            XCTAssertEqual(after.deletions.map(\.id), [grace], "\(database)")
            // A young tombstone stays.
            let kept = try await retention.purge(now: clock.now)
            XCTAssertEqual(kept, 0)
        }
    }

    func testTheCommandLineTellsWhereAnAccountsLogStands() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            _ = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Grace"}"#)
            _ = try await app.send(.DELETE, "/api/contacts/\(ada)", headers: account.bearer)
            let status = try await LocifyApp.syncStatus(in: app, email: account.email)
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(status.revision, latest, "\(database)")
            XCTAssertEqual(status.horizon, 0)
            XCTAssertEqual(status.tombstones, 1)
            XCTAssertEqual(status.oldestTombstone, clock.now)
            XCTAssertEqual(status.records.first { $0.type == "contact" }?.count, 1)
            XCTAssertEqual(status.records.map(\.type), app.syncedTypes.map(\.name))
            XCTAssertEqual(status.lines[0], "Revision: \(latest)")
            XCTAssertEqual(status.lines[1], "Horizon: none (no deletion let go yet)")
            XCTAssertEqual(status.lines.last, "Clients: none has pushed yet")
            for (client, pushes) in [("phone", 1), ("laptop", 2), ("laptop", 3)] {
                let body =
                    #"{"client_id":"\#(client)","mutations":[{"id":\#(pushes),"type":"contact","op":"update","uuid":"\#(UUID())"}]}"#
                let pushed = try await app.send(.POST, "/api/sync", headers: account.bearer, json: body)
                XCTAssertEqual(pushed.status, .ok, pushed.text)
                clock.advance(by: 60)
            }
            let pushed = try await LocifyApp.syncStatus(in: app, email: account.email)
            XCTAssertEqual(pushed.clients.map(\.clientID), ["laptop", "phone"], "\(database): the latest seen first")
            XCTAssertEqual(pushed.clients.map(\.pushes), [2, 1], "\(database)")
            XCTAssertEqual(pushed.clients.map(\.lastMutationID), [3, 1], "\(database)")
            XCTAssertEqual(
                pushed.lines.suffix(3),
                [
                    "Clients:",
                    "  laptop: last seen \(Timestamp.string(clock.now - 60)), 2 pushes, last mutation 3, first seen "
                        + Timestamp.day(clock.now - 120),
                    "  phone: last seen \(Timestamp.string(clock.now - 180)), 1 push, last mutation 1, first seen "
                        + Timestamp.day(clock.now - 180),
                ], "\(database)")
            clock.advance(by: 100 * 86_400)
            try await TombstoneRetention(database: app.db, retention: 90 * 86_400).purge(now: clock.now)
            let purged = try await LocifyApp.syncStatus(in: app, email: account.email)
            XCTAssertEqual(purged.horizon, latest, "\(database)")
            XCTAssertEqual(purged.tombstones, 0)
            XCTAssertEqual(purged.lines[1], "Horizon: \(latest)")
            do {
                _ = try await LocifyApp.syncStatus(in: app, email: "nobody@example.com")
                XCTFail("an unknown email must fail")
            } catch let failure as CommandFailure {
                XCTAssertTrue(failure.description.contains("No account has the email"))
            }
        }
    }

    func testAPullNeverMissesAChangeCommittedWhileItRuns() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let contact = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            var cursor = try await pullAll(app, account, limit: 100).cursor
            let seen = try await withThrowingTaskGroup(of: [Int].self) { group in
                for writer in 0..<2 {
                    group.addTask {
                        var made: [Int] = []
                        for round in 0..<15 {
                            made.append(
                                try await app.createdID(
                                    by: account, "/api/contacts/\(contact)/notes",
                                    #"{"body":"Writer \#(writer), round \#(round)"}"#))
                        }
                        return made
                    }
                }
                var pulled: [Int] = []
                for _ in 0..<20 {
                    let page = try await self.pull(app, account, cursor: cursor, limit: 4, types: "note")
                    pulled += page.changes.map(\.id)
                    cursor = page.cursor
                }
                var written: [Int] = []
                for try await made in group { written += made }
                let rest = try await self.pullAll(app, account, from: cursor, limit: 4, types: "note")
                pulled += rest.pages.flatMap(\.changes).map(\.id)
                return (written: written.sorted(), pulled: pulled)
            }
            XCTAssertEqual(seen.pulled.sorted(), seen.written, "\(database): every note once")
        }
    }
}
