import Foundation
import GRDB
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyKit
@testable import LocifyServer

/// LocifyKit against a real Locify server on a loopback port, through the system's network stack, on both
/// databases: what a native app built on the SDK does.
final class LocifyKitTests: XCTestCase {
    private func seed(_ app: Application, _ account: TestAccount) async throws -> (cafe: Int, contact: Contact) {
        let amelie = try await app.makeContact(
            for: account, ContactDraft(firstName: "Amélie", lastName: "Laurent", nickname: "Mel", job: "Baker"))
        try await app.makeContact(for: account, ContactDraft(firstName: "Grace", lastName: "Hopper"))
        let address = try await app.send(
            .POST, "/api/addresses", headers: account.bearer,
            json:
                #"{"contact_id": \#(amelie.id), "street": "12 rue de la Paix", "city": "Lyon", "country": "FR", "latitude": 45.76, "longitude": 4.83}"#
        )
        XCTAssertEqual(address.status, .created, address.text)
        let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
            .decoded(PlaceCategoryListResource.self).data
        let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" }).id
        for (name, latitude, longitude) in [("Café Mokxa", 45.7578, 4.8320), ("Kaffee Berlin", 52.52, 13.405)] {
            let place = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json:
                    #"{"name": "\#(name)", "latitude": \#(latitude), "longitude": \#(longitude), "category_id": \#(cafe)}"#
            )
            XCTAssertEqual(place.status, .created, place.text)
        }
        return (cafe, amelie)
    }

    func testLoggingInDownloadsTheAccountAndEverythingReadsWithoutTheNetwork() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let (_, amelie) = try await seed(app, account)
            try await app.listening { url in
                try await withStoreFile { path in
                    let client = try await LocifyClient(serverURL: url).logIn(
                        email: account.email, password: account.password)
                    let me = try await client.me()
                    XCTAssertEqual(me.email, account.email)
                    let store = try LocifyStore(path: path)
                    let report = try await LocifySync(client: client, store: store).sync()
                    XCTAssertGreaterThan(report.pulledChanges, 5)
                    XCTAssertFalse(report.downloadedEverything)
                    XCTAssertNotNil(try store.cursor())
                    XCTAssertEqual(try store.count("contact"), 2)
                    XCTAssertEqual(try store.count("place"), 2)

                    // Read again from the file by a store opened anew, with no server behind it.
                    let reopened = try LocifyStore(path: path)
                    XCTAssertEqual(try reopened.contacts().map(\.completeName), ["Amélie Laurent", "Grace Hopper"])
                    let found = try reopened.contacts(matching: "AMELIE laur")
                    XCTAssertEqual(found.map(\.state.id), [amelie.id])
                    let contact = try XCTUnwrap(found.first)
                    XCTAssertEqual(contact.nickname, "Mel")
                    XCTAssertEqual(contact.job, "Baker")
                    XCTAssertFalse(contact.state.isWaiting)
                    XCTAssertEqual(try reopened.contacts(matching: "mel").count, 1)
                    XCTAssertEqual(try reopened.contacts(matching: "nobody").count, 0)
                    XCTAssertEqual(try reopened.contacts(matching: "%").count, 0, "LIKE's wildcards are plain text")
                    let addresses = try reopened.addresses(ofContact: contact)
                    XCTAssertEqual(addresses.map(\.postalAddress.city), ["Lyon"])
                    XCTAssertEqual(addresses.first?.postalAddress.countryCode, "FR")
                    let near = try reopened.places(near: Coordinate(latitude: 45.76, longitude: 4.83), radius: 10_000)
                    XCTAssertEqual(near.map(\.name), ["Café Mokxa"])
                    XCTAssertLessThan(try XCTUnwrap(near.first?.distance), 500)
                    XCTAssertEqual(try reopened.places(matching: "cafe").map(\.name), ["Café Mokxa"])
                    XCTAssertEqual(try reopened.categories().map(\.name).contains("Cafe"), true)

                    // Nothing changed: the next sync brings nothing.
                    let again = try await LocifySync(client: client, store: reopened).sync()
                    XCTAssertEqual(again, SyncReport())
                }
            }
        }
    }

    /// The README's example, line for line (the server's address aside).
    /// A category shared with the account comes into the store apart from its own records, follows its
    /// owner's changes, drops what leaves it, reads offline, and is forgotten when the share is revoked.
    func testACategorySharedWithTheAccountIsKeptApartFollowedAndForgotten() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let (cafe, _) = try await seed(app, owner)
            let member = try await app.makeAccount(email: "rob@example.com", name: "Rob", password: "rob's secret")
            let share = try await app.createdID(
                by: owner, "/api/categories/\(cafe)/shares", #"{"email":"rob@example.com"}"#)
            let places = try await app.places(of: owner)
            let berlin = try XCTUnwrap(places.first { $0.name == "Kaffee Berlin" })
            _ = try await app.createdID(by: owner, "/api/places/\(berlin.id)/comments", #"{"body":"Open late"}"#)
            try await app.listening { url in
                try await withStoreFile { path in
                    let store = try LocifyStore(path: path)
                    let sync = try await LocifySync.logIn(
                        server: url.absoluteString, email: member.email, password: "rob's secret", store: store)
                    let report = try await sync.sync()
                    XCTAssertEqual(report.pulledSharedChanges, 4, "\(database): the category, two places, a comment")
                    let shared = try store.sharedCategories()
                    XCTAssertEqual(
                        shared,
                        [
                            StoredSharedCategory(
                                id: cafe, name: "Cafe", ownerName: "Ada Lovelace", canEdit: false, placesCount: 2)
                        ])
                    XCTAssertEqual(
                        try store.sharedPlaces(inCategory: cafe).map(\.name), ["Café Mokxa", "Kaffee Berlin"])
                    XCTAssertEqual(
                        try store.sharedComments(onPlace: berlin.id).map { $0["body"]?.string }, ["Open late"])
                    XCTAssertEqual(try store.count("place"), 0, "the account's own places are its own")

                    let categories = try await app.placeCategories(of: owner)
                    let other = try XCTUnwrap(categories.first { $0.id != cafe })
                    let moved = try await app.send(
                        .PUT, "/api/places/\(berlin.id)", headers: owner.bearer, json: #"{"category_id":\#(other.id)}"#)
                    XCTAssertEqual(moved.status, .ok, moved.text)
                    try await sync.sync()
                    XCTAssertEqual(try store.sharedPlaces(inCategory: cafe).map(\.name), ["Café Mokxa"])
                    XCTAssertEqual(try store.sharedComments(onPlace: berlin.id).count, 0, "gone with its place")

                    let offline = LocifySync(
                        client: LocifyClient(serverURL: url, token: "unused", transport: NoNetwork()), store: store)
                    do {
                        try await offline.sync()
                        XCTFail("no network, no sync")
                    } catch {}
                    XCTAssertEqual(try LocifyStore(path: path).sharedPlaces(inCategory: cafe).count, 1, "read offline")

                    let revoked = try await app.send(
                        .DELETE, "/api/categories/\(cafe)/shares/\(share)", headers: owner.bearer)
                    XCTAssertEqual(revoked.status, .ok)
                    try await sync.sync()
                    XCTAssertEqual(try store.sharedCategories(), [])
                    XCTAssertEqual(try store.sharedPlaces(inCategory: cafe), [], "nothing of it is kept")
                }
            }
        }
    }

    func testTheReadmeExampleRunsAsWritten() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount(email: "ada@example.com", password: "correct horse")
            let (_, amelie) = try await seed(app, account)
            try await app.listening { url in
                try await withStoreFile { path in
                    let server = url.absoluteString
                    // From here as in README.md.
                    let store = try LocifyStore(path: path)
                    let sync = try await LocifySync.logIn(
                        server: server, email: "ada@example.com", password: "correct horse", store: store)
                    try await sync.sync()  // the whole account, into the store
                    let amelies = try store.contacts(matching: "amelie")  // no network needed; accents and case ignored
                    try store.update("contact", uuid: amelies[0].id, fields: ["nickname": "Mel"])  // shown now, queued
                    let cafes = try store.places(near: Coordinate(latitude: 45.76, longitude: 4.83), radius: 2_000)
                    try await sync.sync()  // sends the change, brings everyone else's
                    for refusal in try store.refusals() { print(refusal.mutation.type, refusal.errors) }
                    // To here.
                    XCTAssertEqual(cafes.map(\.name), ["Café Mokxa"])
                    XCTAssertEqual(try store.refusals(), [])
                    let served = try await app.send(.GET, "/api/contacts/\(amelie.id)", headers: account.bearer)
                        .decoded(DataEnvelope<ContactResource>.self).data
                    XCTAssertEqual(served.nickname, "Mel")
                    let resumed = try XCTUnwrap(try LocifySync(resuming: try LocifyStore(path: path)))
                    XCTAssertEqual(resumed.client.token, sync.client.token, "the next start needs no password")
                    XCTAssertNil(try LocifySync(resuming: try .inMemory()))
                }
            }
        }
    }

    func testChangesMadeOfflineShowAtOnceAndReachTheServerExactlyOnce() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let (cafe, amelie) = try await seed(app, account)
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                let online = LocifyClient(serverURL: url, token: account.token)
                try await LocifySync(client: online, store: store).sync()
                var updates = store.updates().makeAsyncIterator()

                // In a tunnel: every change is kept and shown, the sync says the server is away.
                let emile = try store.create("contact", fields: ["first_name": "Émile", "last_name": "Zola"])
                let seen = await updates.next()
                XCTAssertEqual(seen, StoreUpdate(types: ["contact"]))
                try store.update("contact", uuid: emile, fields: ["nickname": "Mimi"])
                try store.create("address", fields: ["contact_uuid": .string(emile), "city": "Paris", "country": "FR"])
                let amelieUUID = try XCTUnwrap(try store.contact(id: amelie.id)).state.uuid
                try store.update("contact", uuid: amelieUUID, fields: ["is_starred": true, "job": "Chef"])
                let place = try store.create(
                    "place",
                    fields: [
                        "name": "Le Nord", "latitude": 45.7656, "longitude": 4.8339, "category_id": .integer(cafe),
                    ])
                let grace = try XCTUnwrap(try store.contacts(matching: "grace").first).state.uuid
                try store.delete("contact", uuid: grace)
                let offline = LocifySync(
                    client: LocifyClient(serverURL: url, token: account.token, transport: NoNetwork()), store: store)
                do {
                    try await offline.sync()
                    XCTFail("a sync without network succeeded")
                } catch LocifyError.unreachable {}
                let made = try XCTUnwrap(try store.contact(uuid: emile))
                XCTAssertEqual(made.completeName, "Émile Zola")
                XCTAssertEqual(made.nickname, "Mimi")
                XCTAssertTrue(made.state.isWaiting)
                XCTAssertNil(made.state.id)
                XCTAssertEqual(try store.addresses(ofContact: made).map(\.postalAddress.city), ["Paris"])
                XCTAssertEqual(try store.contacts(matching: "emile").count, 1)
                XCTAssertEqual(try store.contact(uuid: amelieUUID)?.isStarred, true)
                XCTAssertEqual(try store.contact(uuid: amelieUUID)?.job, "Chef")
                XCTAssertEqual(
                    try store.places(near: Coordinate(latitude: 45.7656, longitude: 4.8339), radius: 100).map(\.name),
                    ["Le Nord"])
                XCTAssertNil(try store.contact(uuid: grace), "deleted here at once")
                XCTAssertEqual(try store.waitingChanges().count, 6)

                // Back online: sent in order, applied once; the answer lost and the push sent again changes nothing.
                let push = try XCTUnwrap(try store.nextPush())
                let first = try await online.push(push)
                XCTAssertEqual(first.results.map(\.status), Array(repeating: .applied, count: 6))
                let replay = try await online.push(push)
                XCTAssertEqual(replay.results.map(\.status), Array(repeating: .duplicate, count: 6))
                let report = try await LocifySync(client: online, store: store).sync()
                XCTAssertEqual(report.refused, 0)
                XCTAssertEqual(try store.waitingChanges().count, 0)

                let zolas = try await app.send(.GET, "/api/contacts?query=zola", headers: account.bearer)
                    .decoded(PageResource<ContactResource>.self).data
                XCTAssertEqual(zolas.map(\.uuid), [emile])
                XCTAssertEqual(zolas.first?.nickname, "Mimi")
                XCTAssertEqual(zolas.first?.addresses.map(\.city), ["Paris"])
                let served = try await app.send(.GET, "/api/contacts/\(amelie.id)", headers: account.bearer)
                    .decoded(DataEnvelope<ContactResource>.self).data
                XCTAssertTrue(served.isStarred)
                XCTAssertEqual(served.information.career.job, "Chef")
                let graces = try await app.send(.GET, "/api/contacts?query=grace", headers: account.bearer)
                XCTAssertEqual(try graces.decoded(PageResource<ContactResource>.self).data.count, 0)
                XCTAssertEqual(try store.contact(uuid: emile)?.state.isWaiting, false)
                XCTAssertNotNil(try store.contact(uuid: emile)?.state.id)
                XCTAssertNotNil(try store.place(uuid: place)?.state.id)
                XCTAssertEqual(try store.count("contact"), 2)
            }
        }
    }

    func testAPullKeepsWhatStillWaitsOverTheServersChanges() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let (_, amelie) = try await seed(app, account)
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                let client = LocifyClient(serverURL: url, token: account.token)
                let sync = LocifySync(client: client, store: store)
                try await sync.sync()
                let uuid = try XCTUnwrap(try store.contact(id: amelie.id)).state.uuid
                try store.update("contact", uuid: uuid, fields: ["nickname": "Lili"])
                // Meanwhile, the web app changes another field of the same contact.
                let edit = try await app.send(
                    .PUT, "/api/contacts/\(amelie.id)", headers: account.bearer,
                    json: #"{"last_name": "Laurent-Petit"}"#)
                XCTAssertEqual(edit.status, .ok, edit.text)

                try await sync.pull()
                let rebased = try XCTUnwrap(try store.contact(uuid: uuid))
                XCTAssertEqual(rebased.completeName, "Amélie Laurent-Petit", "the server's change arrived")
                XCTAssertEqual(rebased.nickname, "Lili", "the change waiting is laid over it again")
                XCTAssertTrue(rebased.state.isWaiting)

                let report = try await sync.sync()
                XCTAssertEqual(report.pushed, 1)
                let served = try await app.send(.GET, "/api/contacts/\(amelie.id)", headers: account.bearer)
                    .decoded(DataEnvelope<ContactResource>.self).data
                XCTAssertEqual(served.lastName, "Laurent-Petit")
                XCTAssertEqual(served.nickname, "Lili")
                let kept = try XCTUnwrap(try store.contact(uuid: uuid))
                let route = try await client.exchange("GET", "api/contacts/\(amelie.id)")
                let whole = try XCTUnwrap(try JSONValue(parsing: route.body)["data"])
                XCTAssertEqual(kept.json, StoredJSON.kept(whole, type: "contact"), "the server's record, whole")
                XCTAssertNil(kept.json["addresses"], "kept as records of their own")
                XCTAssertNotNil(kept.json["information"])
                XCTAssertEqual(kept.nickname, "Lili")
                XCTAssertFalse(kept.state.isWaiting)
            }
        }
    }

    func testRefusedAndConflictingChangesAreKeptForThePersonNeverDropped() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let (_, amelie) = try await seed(app, account)
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                let sync = LocifySync(client: LocifyClient(serverURL: url, token: account.token), store: store)
                try await sync.sync()
                let amelieUUID = try XCTUnwrap(try store.contact(id: amelie.id)).state.uuid
                let nowhere = try store.create("place", fields: ["name": "Somewhere", "latitude": 91, "longitude": 0])
                try store.update("contact", uuid: amelieUUID, fields: ["nickname": "Lili"])
                let deleted = try await app.send(.DELETE, "/api/contacts/\(amelie.id)", headers: account.bearer)
                XCTAssertEqual(deleted.status, .ok, deleted.text)

                let report = try await sync.sync()
                XCTAssertEqual(report.pushed, 2)
                XCTAssertEqual(report.refused, 2)
                let refusals = try store.refusals()
                XCTAssertEqual(refusals.map(\.mutation.uuid), [nowhere, amelieUUID])
                XCTAssertEqual(refusals.map(\.status), [.rejected, .conflict])
                XCTAssertTrue(refusals[0].errors.contains { $0.field == "latitude" }, "\(refusals[0].errors)")
                XCTAssertEqual(refusals[0].mutation.fields["name"], .string("Somewhere"), "what was typed is kept")
                XCTAssertNil(try store.place(uuid: nowhere))
                XCTAssertNil(try store.contact(uuid: amelieUUID), "deleted on the server, not brought back")
                XCTAssertEqual(try store.waitingChanges().count, 0, "a refusal never blocks the queue")

                try store.dismissRefusal(refusals[0])
                XCTAssertEqual(try store.refusals().map(\.mutation.uuid), [amelieUUID])
            }
        }
    }

    func testTwoDevicesAndTheWebAppConverge() async throws {
        try await forEachDatabase { app, _, _ in
            // The person uses the web app (its forms, signed in) and two devices with a token of theirs.
            let web = WebClient(app: app)
            let mariePath = try await web.registerWithContact()
            let account = try await app.apiAccount(email: "grace@example.com")
            let (_, amelie) = try await seed(app, account)
            try await app.listening { url in
                let phone = try LocifyStore.inMemory()
                let tablet = try LocifyStore.inMemory()
                let client = LocifyClient(serverURL: url, token: account.token)
                let phoneSync = LocifySync(client: client, store: phone)
                let tabletSync = LocifySync(client: client, store: tablet)
                try await phoneSync.sync()
                try await tabletSync.sync()
                let uuid = try XCTUnwrap(try phone.contact(id: amelie.id)).state.uuid
                try phone.update("contact", uuid: uuid, fields: ["nickname": "Lili"])
                try tablet.update("contact", uuid: uuid, fields: ["description": "Met in Lyon"])
                try tablet.create("contact", fields: ["first_name": "Jules"])
                let note = try await web.post("\(mariePath)/notes", form: ["body": "Discovered radium"])
                XCTAssertEqual(note.status, .seeOther, note.text)
                let pierre = try await web.post("/contacts", form: ["first_name": "Pierre", "last_name": "Curie"])
                XCTAssertEqual(pierre.status, .seeOther, pierre.text)
                _ = try await app.send(
                    .PUT, "/api/contacts/\(amelie.id)", headers: account.bearer, json: #"{"is_starred": true}"#)
                try await phoneSync.sync()
                try await tabletSync.sync()
                try await phoneSync.sync()

                let served = try await app.send(.GET, "/api/contacts/\(amelie.id)", headers: account.bearer)
                    .decoded(DataEnvelope<ContactResource>.self).data
                XCTAssertEqual(served.nickname, "Lili")
                XCTAssertEqual(served.description, "Met in Lyon")
                XCTAssertTrue(served.isStarred)
                let names = ["Amélie Laurent", "Grace Hopper", "Jules", "Marie Curie", "Pierre Curie"]
                let onServer = try await client.contacts().data.map(\.completeName).sorted()
                XCTAssertEqual(onServer, names)
                for store in [phone, tablet] {
                    let contact = try XCTUnwrap(try store.contact(uuid: uuid))
                    XCTAssertEqual(contact.nickname, "Lili")
                    XCTAssertEqual(contact.description, "Met in Lyon")
                    XCTAssertTrue(contact.isStarred)
                    XCTAssertEqual(try store.contacts().map(\.completeName), names)
                    XCTAssertEqual(try store.count("note"), 1)
                    XCTAssertEqual(try store.counts(), try phone.counts())
                    XCTAssertEqual(try store.waitingChanges(), [])
                }
            }
        }
    }

    func testErrorsAreTypedAndCarryTheServersWords() async throws {
        XCTAssertThrowsError(try LocifyClient.serverURL("ftp://example.com")) {
            XCTAssertEqual($0 as? LocifyError, .badServerURL("ftp://example.com"))
        }
        XCTAssertThrowsError(try LocifyClient.serverURL("not a url"))
        XCTAssertEqual(
            try LocifyClient.serverURL(" https://locify.example.com ").absoluteString, "https://locify.example.com/")
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            try await app.listening { url in
                do {
                    _ = try await LocifyClient(serverURL: url).logIn(email: account.email, password: "wrong password")
                    XCTFail("logged in with a wrong password")
                } catch LocifyError.badCredentials(let message) {
                    XCTAssertFalse(message.isEmpty)
                }
                let expired = LocifySync(
                    client: LocifyClient(serverURL: url, token: "not-a-token"), store: try .inMemory())
                do {
                    try await expired.sync()
                    XCTFail("synced with a token the server does not know")
                } catch let error as LocifyError {
                    XCTAssertEqual(error, .unauthenticated)
                    XCTAssertEqual(
                        error.localizedDescription,
                        "The session has ended (the token expired or was revoked): log in again.")
                }
                let client = LocifyClient(serverURL: url, token: account.token)
                do {
                    _ = try await client.contact(id: 999_999)
                    XCTFail("read a contact that does not exist")
                } catch LocifyError.notFound(let message) {
                    XCTAssertEqual(message, "The resource has not been found")
                }
                do {
                    _ = try await client.pull(cursor: "nonsense")
                    XCTFail("pulled from a malformed cursor")
                } catch LocifyError.rejected(let status, let code, let messages) {
                    XCTAssertEqual(status, 422)
                    XCTAssertEqual(code, 32)
                    XCTAssertFalse(messages.isEmpty)
                }
                let nobody = try LocifyClient.serverURL("http://127.0.0.1:1")
                do {
                    _ = try await LocifyClient(serverURL: nobody).logIn(
                        email: account.email, password: account.password)
                    XCTFail("reached a port nobody listens on")
                } catch LocifyError.unreachable {}
            }
        }
    }

    func testAFullDiskIsATypedErrorAndLeavesTheStoreAsItWas() async throws {
        try await withStoreFile { path in
            let store = try LocifyStore(path: path)
            try store.create("contact", fields: ["first_name": "Ada"])
            // As if the disk had no room left past what the file holds now.
            try store.writer.write { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            let long = String(repeating: "x", count: 200_000)
            XCTAssertThrowsError(try store.create("contact", fields: ["first_name": .string(long)])) { error in
                guard case .diskFull = error as? LocifyError else { return XCTFail("\(error)") }
                XCTAssertTrue(
                    (error as? LocifyError)?.localizedDescription.hasPrefix("The device is out of storage") ?? false)
            }
            XCTAssertEqual(try store.contacts().map(\.completeName), ["Ada"])
            XCTAssertEqual(try store.waitingChanges().count, 1)
        }
    }

    /// A feed from a newer server: a type this SDK does not know, a field it does not know, an entry it
    /// cannot read. The first two are kept, the third left out, and the rest of the page is not lost.
    func testWhatANewerServerSendsIsKeptOrLeftOutWithoutLosingTheRest() async throws {
        let page = #"""
            {"changes": [
              {"type": "contact", "uuid": "0B6F1D2E-4C1A-4F5E-9A41-3D2C8B7E6F10", "id": 7, "revision": 3,
               "data": {"id": 7, "object": "contact", "first_name": "Ada", "complete_name": "Ada", "aura": {"colour": "gold"}}},
              {"type": "spaceship", "uuid": "5e2a0000-0000-4000-8000-000000000001", "id": 1, "revision": 3,
               "data": {"id": 1, "name": "Heart of Gold"}},
              {"type": "contact", "revision": "soon"}],
             "deletions": [], "cursor": "1.3.9999.0", "has_more": false, "weather": "fine"}
            """#
        let server = ScriptedServer { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(page.utf8))
        }
        let store = try LocifyStore.inMemory()
        let client = LocifyClient(
            serverURL: try LocifyClient.serverURL("https://locify.example.com"), token: "t", transport: server)
        let report = try await LocifySync(client: client, store: store).pull()
        XCTAssertEqual(report.pulledChanges, 2)
        XCTAssertEqual(report.unreadable, 1)
        XCTAssertEqual(try store.counts(), ["contact": 1, "spaceship": 1])
        let ada = try XCTUnwrap(try store.contact(uuid: "0b6f1d2e-4c1a-4f5e-9a41-3d2c8b7e6f10"))
        XCTAssertEqual(ada.json["aura"], .object(["colour": .string("gold")]))
        XCTAssertEqual(try store.cursor(), "1.3.9999.0")
        XCTAssertEqual(server.requests.first?.headers["Authorization"], "Bearer t")
        XCTAssertEqual(server.requests.first?.url.path, "/api/sync")
    }

    func testACursorTheServerForgotDownloadsEverythingAgainAndDropsWhatIsGone() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            _ = try await seed(app, account)
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                let sync = LocifySync(client: LocifyClient(serverURL: url, token: account.token), store: store)
                try await sync.sync()
                // A record the server no longer has, and a cursor from a future it never reached (its data was
                // restored from an older backup).
                try store.apply(
                    SyncPage(
                        json: Data(
                            #"{"changes": [{"type": "contact", "uuid": "5e2a0000-0000-4000-8000-000000000002", "id": 999, "revision": 1, "data": {"id": 999, "first_name": "Ghost"}}], "deletions": [], "cursor": "1.99999.9999.0", "has_more": false}"#
                                .utf8)))
                let kept = try store.create("contact", fields: ["first_name": "Waiting"])
                XCTAssertEqual(try store.contacts(matching: "ghost").count, 1)
                let report = try await sync.sync()
                XCTAssertTrue(report.downloadedEverything)
                XCTAssertEqual(try store.contacts(matching: "ghost").count, 0)
                XCTAssertEqual(try store.contacts().map(\.completeName), ["Amélie Laurent", "Grace Hopper", "Waiting"])
                XCTAssertNotNil(try store.contact(uuid: kept)?.state.id, "the change made meanwhile was sent, not lost")
            }
        }
    }
}
