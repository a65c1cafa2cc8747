import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `POST /api/sync`: a client's offline changes applied in one transaction, each answered by its id;
/// replays answered `duplicate`; field-level last writer wins; edits of deleted records are conflicts;
/// a refused mutation changes nothing and stops nothing; a bad push is refused whole.
final class SyncPushTests: XCTestCase {
    /// One mutation of a push, as a client writes it.
    struct Mutation {
        var id: Int
        var type: String
        var op: String
        var uuid: String
        var baseRevision: Int? = nil
        var fields: [String: Any] = [:]

        var json: [String: Any] {
            [
                "id": id, "type": type, "op": op, "uuid": uuid, "base_revision": baseRevision ?? NSNull(),
                "fields": fields,
            ]
        }
    }

    static func body(client: String, _ mutations: [Mutation], cursor: String? = nil) throws -> String {
        var object: [String: Any] = ["client_id": client, "mutations": mutations.map(\.json)]
        if let cursor { object["cursor"] = cursor }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    private func push(
        _ app: Application, _ account: TestAccount, client: String = "phone", _ mutations: [Mutation],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SyncPushAnswerResource {
        let response = try await app.send(
            .POST, "/api/sync", headers: account.bearer, json: try Self.body(client: client, mutations))
        XCTAssertEqual(response.status, .ok, response.text, file: file, line: line)
        let answer = try response.decoded(SyncPushAnswerResource.self, file: file, line: line)
        XCTAssertEqual(
            answer.results.map(\.id), mutations.map(\.id), "one result a mutation, in order", file: file, line: line)
        return answer
    }

    private func revision(_ app: Application, _ account: TestAccount) async throws -> Int {
        try await app.db.plainRows(
            #"SELECT "revision" FROM "users" WHERE "id" = \#(bind: account.id)"#, columns: ["revision"]
        ).first?.requiredInteger(0) ?? -1
    }

    private func uuid() -> String { UUID().uuidString.lowercased() }

    func testAnOfflineSessionOfCreatesUpdatesAndDeletesLandsInOneRevision() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let (ada, home, rent, cafes, flore, doomed) = (uuid(), uuid(), uuid(), uuid(), uuid(), uuid())
            let before = try await revision(app, account)
            let answer = try await push(
                app, account,
                [
                    Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"]),
                    Mutation(
                        id: 2, type: "address", op: "create", uuid: home,
                        fields: ["contact_uuid": ada, "city": "London", "country": "GB"]),
                    Mutation(
                        id: 3, type: "reminder", op: "create", uuid: rent,
                        fields: [
                            "contact_uuid": ada, "title": "Rent", "initial_date": "2030-01-31",
                            "frequency_type": "one_time",
                        ]),
                    Mutation(id: 4, type: "category", op: "create", uuid: cafes, fields: ["name": "Cafés"]),
                    Mutation(
                        id: 5, type: "place", op: "create", uuid: flore,
                        fields: [
                            "name": "Flore", "latitude": 48.854, "longitude": 2.333, "category_uuid": cafes,
                            "is_favorite": true,
                        ]),
                    Mutation(id: 6, type: "contact", op: "update", uuid: ada, fields: ["last_name": "Lovelace"]),
                    Mutation(
                        id: 7, type: "note", op: "create", uuid: doomed, fields: ["contact_uuid": ada, "body": "x"]),
                    Mutation(id: 8, type: "note", op: "delete", uuid: doomed),
                ])
            XCTAssertEqual(answer.results.map(\.status), Array(repeating: .applied, count: 8), "\(database)")
            let after = try await revision(app, account)
            XCTAssertEqual(after, before + 1, "\(database): one push, one revision")
            XCTAssertEqual(Set(answer.results.compactMap(\.revision)), [after], "\(database)")

            // Each record answered as its own route answers it.
            guard case .contact(let contact) = answer.results[5].data,
                case .address(let address) = answer.results[1].data,
                case .place(let place) = answer.results[4].data,
                case .category(let category) = answer.results[3].data
            else { return XCTFail("\(database): \(answer.results)") }
            XCTAssertEqual(contact.firstName, "Ada", "\(database): fields left out keep their value")
            XCTAssertEqual(contact.lastName, "Lovelace", "\(database)")
            XCTAssertEqual(contact.uuid, ada, "\(database)")
            XCTAssertEqual(address.contact.id, contact.id, "\(database): contact_uuid named the new contact")
            XCTAssertEqual(place.categoryID, category.id, "\(database): category_uuid named the new category")
            XCTAssertTrue(place.isFavorite, "\(database)")
            XCTAssertNil(answer.results[7].data, "\(database): a deleted record answers no data")
            let shown = try await app.send(.GET, "/api/contacts/\(contact.id)", headers: account.bearer)
            XCTAssertEqual(
                try shown.decoded(DataEnvelope<ContactResource>.self).data, contact, "\(database): same as the route")

            // A pull from the answered cursor brings the push back, cascades and all.
            let pulled = try await app.send(.GET, "/api/sync?cursor=\(answer.cursor)", headers: account.bearer)
            let page = try pulled.decoded(SyncPullResource.self)
            let pushed: Set = [ada, home, rent, cafes, flore]
            XCTAssertTrue(pushed.isSubset(of: page.changes.map(\.uuid)), "\(database): \(page.changes.map(\.type))")
            // The rest is what a new account's first write seeds: its genders and categories.
            XCTAssertEqual(
                Set(page.changes.filter { !pushed.contains($0.uuid) }.map(\.type)), ["gender", "category"],
                "\(database)")
            XCTAssertEqual(page.deletions.map(\.uuid), [doomed], "\(database)")
        }
    }

    func testAReplayedPushIsAnsweredDuplicateAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let (ada, home) = (uuid(), uuid())
            let mutations = [
                Mutation(id: 10, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"]),
                Mutation(
                    id: 11, type: "address", op: "create", uuid: home, fields: ["contact_uuid": ada, "city": "Paris"]),
                Mutation(id: 12, type: "contact", op: "update", uuid: ada, fields: ["nickname": "Countess"]),
            ]
            let first = try await push(app, account, mutations)
            XCTAssertEqual(first.results.map(\.status), [.applied, .applied, .applied], "\(database)")
            // Someone else changes the nickname; a replay of mutation 12 must not undo that.
            let other = try await push(
                app, account, client: "laptop",
                [Mutation(id: 1, type: "contact", op: "update", uuid: ada, fields: ["nickname": "Enchantress"])])
            XCTAssertEqual(other.results.map(\.status), [.applied], "\(database)")

            let replay = try await push(app, account, mutations)
            XCTAssertEqual(replay.results.map(\.status), [.duplicate, .duplicate, .duplicate], "\(database)")
            guard case .contact(let contact) = replay.results[2].data else { return XCTFail("\(database)") }
            XCTAssertEqual(contact.nickname, "Enchantress", "\(database): the replay changed nothing")
            let contacts = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(try contacts.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 1)
            let addresses = try await app.send(.GET, "/api/addresses", headers: account.bearer)
            XCTAssertEqual(
                try addresses.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 1, "\(database)")

            // A push that repeats some ids and adds new ones: the old ones duplicate, the new ones apply.
            let resumed = try await push(
                app, account,
                mutations + [
                    Mutation(id: 13, type: "contact", op: "update", uuid: ada, fields: ["description": "Analyst"])
                ])
            XCTAssertEqual(
                resumed.results.map(\.status), [.duplicate, .duplicate, .duplicate, .applied], "\(database)")

            // Another client creating a uuid that exists gets the record, not a twin.
            let twin = try await push(
                app, account, client: "tablet",
                [Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"])])
            XCTAssertEqual(twin.results.map(\.status), [.duplicate], "\(database)")
            guard case .contact(let existing) = twin.results[0].data else { return XCTFail("\(database)") }
            XCTAssertEqual(existing.description, "Analyst", "\(database)")
        }
    }

    /// A push sent again after its answer was lost hears its refusals again: `duplicate` would read as
    /// saved, and the person would never learn the change was not made.
    func testAReplayedPushTellsItsRefusalsAgain() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let (ada, gone) = (uuid(), uuid())
            let mutations = [
                Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"]),
                Mutation(id: 2, type: "contact", op: "create", uuid: gone, fields: ["first_name": "Gone"]),
                Mutation(
                    id: 3, type: "place", op: "create", uuid: uuid(), fields: ["name": "Nowhere", "latitude": 200]),
                Mutation(id: 4, type: "contact", op: "delete", uuid: gone),
                Mutation(id: 5, type: "contact", op: "update", uuid: gone, fields: ["nickname": "Back"]),
            ]
            let first = try await push(app, account, mutations)
            XCTAssertEqual(
                first.results.map(\.status), [.applied, .applied, .rejected, .applied, .conflict], "\(database)")
            let replay = try await push(app, account, mutations)
            XCTAssertEqual(
                replay.results.map(\.status), [.duplicate, .duplicate, .rejected, .duplicate, .conflict],
                "\(database)")
            XCTAssertEqual(replay.results[2].errors, first.results[2].errors, "\(database): the same reasons")
            XCTAssertEqual(replay.results[4].errors, first.results[4].errors, "\(database)")
            let places = try await app.send(.GET, "/api/places", headers: account.bearer)
            XCTAssertEqual(
                try places.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 0, "\(database)")
            // Refusals far behind what the client sends now are let go.
            let later = (6...1_010).map { Mutation(id: $0, type: "contact", op: "update", uuid: ada, fields: [:]) }
            for batch in stride(from: 0, to: later.count, by: 500) {
                _ = try await push(app, account, Array(later[batch..<min(batch + 500, later.count)]))
            }
            let stored = try await app.db.plainRows(
                #"SELECT "refusals" FROM "sync_clients" WHERE "client_id" = 'phone'"#, columns: ["refusals"])
            XCTAssertEqual(try stored.first?.text(0), "[]", "\(database)")
        }
    }

    /// A push answers some questions once for all its mutations (is this contact the account's? the
    /// account's genders); a mutation that changes the answer makes the next one ask again.
    func testWhatAPushKnowsOfARecordIsForgottenOnceAMutationChangesIt() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = uuid()
            let made = try await push(
                app, account, [Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"])]
            )
            guard case .contact(let contact) = made.results[0].data else { return XCTFail("\(database)") }
            let answer = try await push(
                app, account,
                [
                    Mutation(
                        id: 2, type: "address", op: "create", uuid: uuid(),
                        fields: ["contact_id": contact.id, "city": "Paris"]),
                    Mutation(id: 3, type: "contact", op: "delete", uuid: ada),
                    Mutation(
                        id: 4, type: "address", op: "create", uuid: uuid(),
                        fields: ["contact_id": contact.id, "city": "Rome"]),
                    Mutation(
                        id: 5, type: "contact", op: "create", uuid: uuid(),
                        fields: ["first_name": "Grace", "gender_id": 1_000_000]),
                    Mutation(id: 6, type: "contact", op: "create", uuid: uuid(), fields: ["first_name": "Mary"]),
                ])
            XCTAssertEqual(
                answer.results.map(\.status), [.applied, .applied, .rejected, .rejected, .applied], "\(database)")
            XCTAssertEqual(answer.results[2].errors.map(\.message), AppError.notFound.messages, "\(database)")
            let addresses = try await app.send(.GET, "/api/addresses", headers: account.bearer)
            XCTAssertEqual(
                try addresses.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 0,
                "\(database): \(addresses.text)")
            let genders = try await app.send(.GET, "/api/genders", headers: account.bearer)
            XCTAssertEqual(
                try genders.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 3,
                "\(database): seeded once: \(genders.text)")
        }
    }

    func testFieldsLeftOutKeepOthersNewerValuesAndTheClientHearsMerged() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = uuid()
            let made = try await push(
                app, account, [Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"])]
            )
            let seen = try XCTUnwrap(made.results[0].revision)
            // Two devices edit from the same revision: one the first name, the other the last name.
            let phone = try await push(
                app, account,
                [
                    Mutation(
                        id: 2, type: "contact", op: "update", uuid: ada, baseRevision: seen,
                        fields: ["first_name": "Augusta"])
                ])
            XCTAssertEqual(phone.results[0].status, .applied, "\(database): nothing changed since it read")
            let laptop = try await push(
                app, account, client: "laptop",
                [
                    Mutation(
                        id: 1, type: "contact", op: "update", uuid: ada, baseRevision: seen,
                        fields: ["last_name": "King"])
                ])
            XCTAssertEqual(laptop.results[0].status, .merged, "\(database): the phone changed it meanwhile")
            guard case .contact(let merged) = laptop.results[0].data else { return XCTFail("\(database)") }
            XCTAssertEqual([merged.firstName, merged.lastName], ["Augusta", "King"], "\(database): both edits kept")
            // The same field from both: the later arrival wins.
            let late = try await push(
                app, account, client: "laptop",
                [
                    Mutation(
                        id: 2, type: "contact", op: "update", uuid: ada, baseRevision: seen,
                        fields: ["first_name": "Ada"])
                ])
            guard case .contact(let last) = late.results[0].data else { return XCTFail("\(database)") }
            XCTAssertEqual(last.firstName, "Ada", "\(database)")
            XCTAssertEqual(late.results[0].status, .merged, "\(database)")
        }
    }

    /// The web app's contact form changes job and company with the rest: offline, one mutation carries
    /// them (online they have a route of their own, `PUT /api/contacts/{id}/work`).
    func testAContactsJobAndCompanyArePushedWithItsOtherFields() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = uuid()
            let made = try await push(
                app, account,
                [
                    Mutation(
                        id: 1, type: "contact", op: "create", uuid: ada,
                        fields: ["first_name": "Ada", "job": "Analyst", "company": "Babbage & Co"])
                ])
            guard case .contact(let created) = made.results[0].data else { return XCTFail("\(database)") }
            XCTAssertEqual(
                [created.information.career.job, created.information.career.company], ["Analyst", "Babbage & Co"],
                "\(database)")
            let changed = try await push(
                app, account,
                [
                    Mutation(
                        id: 2, type: "contact", op: "update", uuid: ada, baseRevision: made.results[0].revision,
                        fields: ["company": "", "nickname": "Countess"])
                ])
            guard case .contact(let updated) = changed.results[0].data else { return XCTFail("\(database)") }
            XCTAssertEqual(updated.information.career.job, "Analyst", "\(database): left out, kept")
            XCTAssertNil(updated.information.career.company, "\(database): blank clears it")
            XCTAssertEqual(updated.nickname, "Countess", "\(database)")
            let refused = try await push(
                app, account,
                [Mutation(id: 3, type: "contact", op: "update", uuid: ada, fields: ["job": ["not", "text"]])])
            XCTAssertEqual(refused.results[0].status, .rejected, "\(database)")
            XCTAssertEqual(refused.results[0].errors.map(\.field), ["job"], "\(database)")
        }
    }

    func testAChangeToARecordDeletedMeanwhileIsAConflictAndBringsNothingBack() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let (ada, home, note) = (uuid(), uuid(), uuid())
            _ = try await push(
                app, account,
                [
                    Mutation(id: 1, type: "contact", op: "create", uuid: ada, fields: ["first_name": "Ada"]),
                    Mutation(
                        id: 2, type: "address", op: "create", uuid: home, fields: ["contact_uuid": ada, "city": "Oslo"]),
                ])
            let contacts = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            let id = try XCTUnwrap(
                (try contacts.json()["data"] as? [[String: Any]])?.first?["id"] as? Int, "\(database)")
            let deleted = try await app.send(.DELETE, "/api/contacts/\(id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)

            let before = try await app.send(.GET, "/api/sync", headers: account.bearer).decoded(SyncPullResource.self)
            let answer = try await push(
                app, account, client: "offline",
                [
                    Mutation(id: 1, type: "contact", op: "update", uuid: ada, fields: ["nickname": "Back?"]),
                    Mutation(id: 2, type: "address", op: "update", uuid: home, fields: ["city": "Bergen"]),
                    Mutation(
                        id: 3, type: "note", op: "create", uuid: note, fields: ["contact_uuid": ada, "body": "Hi"]),
                    Mutation(id: 4, type: "contact", op: "delete", uuid: ada),
                ])
            XCTAssertEqual(answer.results.map(\.status), [.conflict, .conflict, .conflict, .merged], "\(database)")
            XCTAssertTrue(answer.results[0].errors.first?.message.contains("deleted") == true, "\(database)")
            let after = try await app.send(.GET, "/api/sync", headers: account.bearer).decoded(SyncPullResource.self)
            XCTAssertEqual(after.changes, before.changes, "\(database): nothing came back to life")
        }
    }

    func testARefusedMutationChangesNothingAndStopsNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let theirs = uuid()
            _ = try await push(
                app, other,
                [Mutation(id: 1, type: "contact", op: "create", uuid: theirs, fields: ["first_name": "Grace"])])
            let route = try await app.send(.POST, "/api/contacts", headers: account.bearer, json: #"{"last_name":"X"}"#)
            XCTAssertEqual(route.status, .unprocessableEntity)
            let routeMessages = try XCTUnwrap(
                (try route.json()["error"] as? [String: Any])?["message"] as? [String], route.text)

            let kept = uuid()
            let answer = try await push(
                app, account,
                [
                    Mutation(id: 1, type: "contact", op: "create", uuid: uuid(), fields: ["last_name": "X"]),
                    Mutation(id: 2, type: "contact", op: "create", uuid: kept, fields: ["first_name": "Kept"]),
                    Mutation(
                        id: 3, type: "contact", op: "create", uuid: uuid(), fields: ["first_name": "A", "shoe_size": 9]),
                    Mutation(id: 4, type: "contact", op: "update", uuid: theirs, fields: ["first_name": "Mine"]),
                    Mutation(id: 5, type: "contact", op: "create", uuid: theirs, fields: ["first_name": "Mine"]),
                    Mutation(
                        id: 6, type: "address", op: "create", uuid: uuid(),
                        fields: ["contact_uuid": theirs, "city": "Rome"]),
                    Mutation(
                        id: 7, type: "place", op: "create", uuid: uuid(),
                        fields: ["name": "Nowhere", "latitude": 91, "longitude": 0]),
                    Mutation(id: 8, type: "contact", op: "update", uuid: kept, fields: ["nickname": "Still here"]),
                ])
            XCTAssertEqual(
                answer.results.map(\.status),
                [.rejected, .applied, .rejected, .rejected, .rejected, .rejected, .rejected, .applied], "\(database)")
            XCTAssertEqual(
                answer.results[0].errors.map(\.message), routeMessages, "\(database): the route's own errors")
            XCTAssertEqual(answer.results[2].errors.map(\.field), ["shoe_size"], "\(database)")
            XCTAssertTrue(answer.results[2].errors[0].message.contains("first_name"), "\(database): says what it takes")
            XCTAssertTrue(answer.results[6].errors.map(\.field).contains("latitude"), "\(database)")
            let grace = try await app.send(.GET, "/api/contacts", headers: other.bearer)
            XCTAssertTrue(grace.text.contains("Grace") && !grace.text.contains("Mine"), "\(database): \(grace.text)")
            let mine = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(
                try mine.json()["meta"].flatMap { ($0 as? [String: Any])?["total"] as? Int }, 1,
                "\(database): only the kept contact: \(mine.text)")
            XCTAssertTrue(mine.text.contains("Still here"), "\(database)")
        }
    }

    func testABadPushIsRefusedWholeAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let good = Mutation(id: 1, type: "contact", op: "create", uuid: uuid(), fields: ["first_name": "Ada"])
            var later = good
            later.id = 5
            later.uuid = uuid()
            var earlier = good
            earlier.id = 4
            earlier.uuid = uuid()
            let tooMany = (1...(SyncPush.maximumMutations + 1)).map {
                Mutation(id: $0, type: "contact", op: "create", uuid: uuid(), fields: ["first_name": "A\($0)"])
            }
            let cases: [(String, String, String)] = [
                ("not JSON", "{", "json"),
                ("not an object", "[1]", "mutations"),
                ("no client", #"{"mutations":[]}"#, "client_id"),
                ("no mutations", #"{"client_id":"a"}"#, "mutations"),
                ("bad cursor", #"{"client_id":"a","cursor":"x","mutations":[]}"#, "cursor"),
                (
                    "unknown type",
                    try Self.body(client: "a", [Mutation(id: 1, type: "spaceship", op: "create", uuid: uuid())]), "type"
                ),
                (
                    "a read-only type",
                    try Self.body(client: "a", [Mutation(id: 1, type: "photo", op: "delete", uuid: uuid())]), "type"
                ),
                (
                    "unknown op",
                    try Self.body(client: "a", [Mutation(id: 1, type: "contact", op: "upsert", uuid: uuid())]), "op"
                ),
                (
                    "bad uuid",
                    try Self.body(client: "a", [Mutation(id: 1, type: "contact", op: "create", uuid: "no")]), "uuid"
                ),
                ("too many", try Self.body(client: "a", tooMany), "mutations"),
            ]
            let before = try await revision(app, account)
            for (name, body, word) in cases {
                let response = try await app.send(.POST, "/api/sync", headers: account.bearer, json: body)
                XCTAssertTrue(
                    [.unprocessableEntity, .badRequest].contains(response.status),
                    "\(database) \(name): \(response.text)")
                XCTAssertTrue(response.text.lowercased().contains(word), "\(database) \(name): \(response.text)")
            }
            let after = try await revision(app, account)
            XCTAssertEqual(after, before, "\(database): nothing was written")

            // An id that does not go up is refused alone: a replay is recognised by its id, so a change
            // numbered out of order could never be told from one already applied.
            let mixed = try await push(app, account, client: "a", [good, later, earlier])
            XCTAssertEqual(mixed.results.map(\.status), [.applied, .applied, .rejected], "\(database)")
            XCTAssertEqual(mixed.results[2].errors.map(\.field), ["id"], "\(database)")
            XCTAssertTrue(mixed.results[2].errors[0].message.contains("4 comes after 5"), "\(database)")
            let contacts = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertTrue(contacts.text.contains(#""total":2"#), "\(database): \(contacts.text)")
        }
    }

    func testTheWebAppPushesWithItsSessionAndCSRFHeader() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            try await browser.register()
            let body = try Self.body(
                client: "web",
                [Mutation(id: 1, type: "contact", op: "create", uuid: uuid(), fields: ["first_name": "Ada"])])
            let unsigned = try await app.send(.POST, "/api/sync", json: body)
            XCTAssertEqual(unsigned.status, .unauthorized, "\(database)")
            let forged = try await browser.send(.POST, "/api/sync", body: body, contentType: "application/json")
            XCTAssertEqual(forged.status, .forbidden, "\(database): a session without the CSRF header")
            browser.extraHeaders.replaceOrAdd(name: "X-CSRF-Token", value: try XCTUnwrap(browser.csrfToken))
            let pushed = try await browser.send(.POST, "/api/sync", body: body, contentType: "application/json")
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            XCTAssertEqual(try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied])
            let pulled = try await browser.get("/api/sync?types=contact")
            XCTAssertEqual(try pulled.decoded(SyncPullResource.self).changes.count, 1, "\(database)")
        }
    }
}
