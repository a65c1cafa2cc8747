import FluentKit
import LocifyAPI
import LocifyCore
import Vapor
import XCTest

@testable import LocifyServer

extension RevisionCounter {
    /// The account's latest revision, as the tests read it.
    static func latest(for ownerID: Int, on database: any Database) async throws -> Int {
        let rows = try await database.plainRows(
            #"SELECT "revision" FROM "users" WHERE "id" = \#(bind: ownerID)"#, columns: ["revision"])
        return try rows.first?.integer(0) ?? 0
    }
}

/// The revision log under sync: each write transaction takes its account's next revision, stamps it on
/// the rows it writes and on a tombstone for each row it deletes.
final class RevisionLogTests: XCTestCase {
    private func revision(of table: String, id: Int, on app: Application) async throws -> Int? {
        try await app.db.plainRows(
            #"SELECT "revision" FROM "\#(unsafeRaw: table)" WHERE "id" = \#(bind: id)"#, columns: ["revision"]
        ).first?.integer(0)
    }

    func testAContactsCreateEditAndDeleteEachTakeTheNextRevisionAndTheDeleteLeavesATombstone() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            // A new account's genders are made the first time they are asked for, in a write of their own.
            let genders = try await app.send(.GET, "/api/genders", headers: account.bearer)
            XCTAssertEqual(genders.status, .ok)
            let before = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(before, 1, "\(database): seeding the genders took one revision")
            let created = try await app.send(
                .POST, "/api/contacts", headers: account.bearer, json: #"{"first_name": "Ada"}"#)
            XCTAssertEqual(created.status, .created, "\(database)")
            let contact = try created.decoded(DataEnvelope<ContactResource>.self).data
            let first = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(first, before + 1, "one write, one revision")
            let stamped = try await revision(of: "contacts", id: contact.id, on: app)
            XCTAssertEqual(stamped, first)

            let edited = try await app.send(
                .PUT, "/api/contacts/\(contact.id)", headers: account.bearer, json: #"{"first_name": "Augusta"}"#)
            XCTAssertEqual(edited.status, .ok)
            let restamped = try await revision(of: "contacts", id: contact.id, on: app)
            XCTAssertEqual(restamped, first + 1)

            clock.advance(by: 60)
            let deleted = try await app.send(.DELETE, "/api/contacts/\(contact.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let tombstones = try await app.db.plainRows(
                #"SELECT "type", "uuid", "row_id", "revision", "user_id" FROM "sync_tombstones""#,
                columns: ["type", "uuid", "row_id", "revision", "user_id"])
            XCTAssertEqual(tombstones.count, 1)
            let tombstone = try XCTUnwrap(tombstones.first)
            XCTAssertEqual(try tombstone.text(0), "contact")
            XCTAssertEqual(try tombstone.uuid(1)?.uuidString.lowercased(), contact.uuid.lowercased())
            XCTAssertEqual(try tombstone.integer(2), contact.id)
            XCTAssertEqual(try tombstone.integer(3), first + 2)
            XCTAssertEqual(try tombstone.integer(4), account.id)
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(latest, first + 2)
        }
    }

    func testConcurrentWritesTakeDistinctRevisionsInCommitOrder() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let genders = try await app.send(.GET, "/api/genders", headers: account.bearer)
            XCTAssertEqual(genders.status, .ok)
            let before = try await RevisionCounter.latest(for: account.id, on: app.db)
            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await app.makeContact(for: account, ContactDraft(firstName: "Writer \(index)")).id
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            var revisions: [Int] = []
            for id in ids { revisions.append(try await revision(of: "contacts", id: id, on: app) ?? 0) }
            XCTAssertEqual(Set(revisions).count, 20, "\(database): each write its own revision")
            XCTAssertEqual(revisions.sorted(), Array(before + 1...before + 20))
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(latest, before + 20)
        }
    }

    private func tombstones(_ app: Application, revision: Int) async throws -> [String: [Int]] {
        let rows = try await app.db.plainRows(
            #"SELECT "type", "row_id" FROM "sync_tombstones" WHERE "revision" = \#(bind: revision)"#,
            columns: ["type", "row_id"])
        var found: [String: [Int]] = [:]
        for row in rows { found[try row.requiredText(0), default: []].append(try row.requiredInteger(1)) }
        return found
    }

    func testEveryKindOfRecordIsStampedWithTheRevisionOfTheWriteThatMadeOrChangedIt() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Ada")).id
            // A new account's four categories, so category 1 is there.
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
            XCTAssertEqual(categories.status, .ok)
            let photo = Data(TestImages.png(width: 8, height: 8)).base64EncodedString()
            let made: [(table: String, path: String, json: String)] = [
                ("addresses", "/api/contacts/\(contact)/addresses", #"{"city":"Berlin","country":"DEU"}"#),
                ("notes", "/api/contacts/\(contact)/notes", #"{"body":"Likes tea."}"#),
                ("tasks", "/api/tasks", #"{"contact_id":\#(contact),"title":"Call"}"#),
                (
                    "reminders", "/api/reminders",
                    #"{"contact_id":\#(contact),"title":"Rent","initial_date":"2030-01-31","frequency_type":"one_time"}"#
                ),
                (
                    "contact_fields", "/api/contacts/\(contact)/contactfields",
                    #"{"contact_field_type_id":2,"data":"+44 1"}"#
                ),
                ("genders", "/api/genders", #"{"name":"Non-binary","type":"N"}"#),
                ("places", "/api/places", #"{"name":"Flore","latitude":48.85,"longitude":2.33,"category_id":1}"#),
                ("place_categories", "/api/categories", #"{"name":"Bakeries"}"#),
                ("contact_field_types", "/api/contactfieldtypes", #"{"name":"Mastodon","protocol":"https://"}"#),
                ("photos", "/api/photos", #"{"contact_id":\#(contact),"data":"\#(photo)"}"#),
            ]
            for record in made {
                let id = try await app.createdID(by: account, record.path, record.json)
                let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
                let stamped = try await revision(of: record.table, id: id, on: app)
                XCTAssertEqual(stamped, latest, "\(database): \(record.table) made in the latest write")
            }
            let tagged = try await app.send(
                .POST, "/api/contacts/\(contact)/setTags", headers: account.bearer, json: #"{"tags":["family"]}"#)
            XCTAssertEqual(tagged.status, .ok, tagged.text)
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            for table in ["tags", "contact_tags"] {
                let revisions = try await app.db.plainRows(
                    #"SELECT "revision" FROM "\#(unsafeRaw: table)" WHERE "user_id" = \#(bind: account.id)"#,
                    columns: ["revision"]
                ).map { try $0.integer(0) }
                XCTAssertEqual(revisions, [latest], "\(database): \(table) and its link in one write")
            }
            clock.advance(by: 60)
            let note = try await app.createdID(by: account, "/api/contacts/\(contact)/notes", #"{"body":"Second."}"#)
            let edited = try await app.send(
                .PUT, "/api/notes/\(note)", headers: account.bearer, json: #"{"body":"Second, edited."}"#)
            XCTAssertEqual(edited.status, .ok, edited.text)
            let afterEdit = try await RevisionCounter.latest(for: account.id, on: app.db)
            let restamped = try await revision(of: "notes", id: note, on: app)
            XCTAssertEqual(restamped, afterEdit, "\(database): an edit takes a new revision")
        }
    }

    func testDeletingAContactLeavesATombstoneForEachOfItsRecordsInTheSameRevision() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Ada")).id
            let other = try await app.makeContact(for: account, ContactDraft(firstName: "Grace")).id
            let photo = Data(TestImages.png(width: 8, height: 8)).base64EncodedString()
            var children: [String: [Int]] = [:]
            for id in [contact, other] {
                children["address", default: []].append(
                    try await app.createdID(
                        by: account, "/api/contacts/\(id)/addresses", #"{"city":"Berlin","country":"DEU"}"#))
                children["note", default: []].append(
                    try await app.createdID(by: account, "/api/contacts/\(id)/notes", #"{"body":"Likes tea."}"#))
                children["task", default: []].append(
                    try await app.createdID(by: account, "/api/tasks", #"{"contact_id":\#(id),"title":"Call"}"#))
                children["reminder", default: []].append(
                    try await app.createdID(
                        by: account, "/api/reminders",
                        #"{"contact_id":\#(id),"title":"Rent","initial_date":"2030-01-31","frequency_type":"one_time"}"#
                    ))
                children["contactfield", default: []].append(
                    try await app.createdID(
                        by: account, "/api/contacts/\(id)/contactfields",
                        #"{"contact_field_type_id":2,"data":"+44 1","labels":["cell"]}"#))
                children["photo", default: []].append(
                    try await app.createdID(by: account, "/api/photos", #"{"contact_id":\#(id),"data":"\#(photo)"}"#))
                let tagged = try await app.send(
                    .POST, "/api/contacts/\(id)/setTags", headers: account.bearer, json: #"{"tags":["family"]}"#)
                XCTAssertEqual(tagged.status, .ok, tagged.text)
            }
            let deleted = try await app.send(.DELETE, "/api/contacts/\(contact)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let revision = try await RevisionCounter.latest(for: account.id, on: app.db)
            let gone = try await tombstones(app, revision: revision)
            XCTAssertEqual(gone["contact"], [contact], "\(database)")
            for (type, ids) in children {
                XCTAssertEqual(gone[type], [ids[0]], "\(database): the deleted contact's \(type), not the other's")
            }
            XCTAssertNil(gone["contactfieldlabel"], "\(database): labels go inside their field's tombstone")
            XCTAssertEqual(gone["contact_tag"]?.count, 1, "\(database): the contact's tag link")
            XCTAssertNil(gone["tag"], "\(database): the tag stays")
        }
    }

    func testDeletingACategoryStampsThePlacesItMovesAndAKindItsFields() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let category = try await app.createdID(by: account, "/api/categories", #"{"name":"Bakeries"}"#)
            var places: [Int] = []
            for name in ["Poilâne", "Du Pain"] {
                places.append(
                    try await app.createdID(
                        by: account, "/api/places",
                        #"{"name":"\#(name)","latitude":48.85,"longitude":2.33,"category_id":\#(category)}"#))
            }
            let elsewhere = try await app.createdID(
                by: account, "/api/places", #"{"name":"Flore","latitude":48.85,"longitude":2.33,"category_id":1}"#)
            let before = try await revision(of: "places", id: elsewhere, on: app)
            let deleted = try await app.send(
                .DELETE, "/api/categories/\(category)?move_to=1", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            for place in places {
                let stamped = try await revision(of: "places", id: place, on: app)
                XCTAssertEqual(stamped, latest, "\(database): a moved place is an update clients hear of")
            }
            let untouched = try await revision(of: "places", id: elsewhere, on: app)
            XCTAssertEqual(untouched, before, "\(database): a place that did not move keeps its revision")
            let gone = try await tombstones(app, revision: latest)
            XCTAssertEqual(gone["category"], [category], "\(database)")

            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Ada")).id
            let kind = try await app.createdID(by: account, "/api/contactfieldtypes", #"{"name":"Mastodon"}"#)
            let field = try await app.createdID(
                by: account, "/api/contacts/\(contact)/contactfields",
                #"{"contact_field_type_id":\#(kind),"data":"@ada"}"#)
            let kindDeleted = try await app.send(.DELETE, "/api/contactfieldtypes/\(kind)", headers: account.bearer)
            XCTAssertEqual(kindDeleted.status, .ok, kindDeleted.text)
            let kindGone = try await tombstones(
                app, revision: try await RevisionCounter.latest(for: account.id, on: app.db))
            XCTAssertEqual(kindGone["contactfieldtype"], [kind], "\(database)")
            XCTAssertEqual(kindGone["contactfield"], [field], "\(database): the kind's fields go with it")
        }
    }

    func testABackgroundJobsAnswerTakesARevisionOfItsOwn() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            app.dependencies.geocoder = StubGeocoder { _ in [AddressesAPITests.berlin] }
            let id = try await app.createdID(by: account, "/api/contacts/\(ada.id)/addresses", #"{"city":"Berlin"}"#)
            let saved = try await revision(of: "addresses", id: id, on: app)
            let ran = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ran, 1, "\(database): the look-up ran")
            let located = try await revision(of: "addresses", id: id, on: app)
            let latest = try await RevisionCounter.latest(for: account.id, on: app.db)
            XCTAssertEqual(located, latest, "\(database): the coordinates arrive as a change clients hear of")
            XCTAssertGreaterThan(located ?? 0, saved ?? 0)
        }
    }

    func testASyncedTableIsWrittenOnlyInsideItsOwnersWrite() async throws {
        try await forEachDatabase { app, clock, database in
            let ada = try await app.makeAccount()
            let grace = try await app.makeAccount(email: "grace@example.com")
            let now = clock.now
            let values: TagsTable.Values = [
                .uuid: UUID(), .owner: ada.id, .name: "Family", .nameKey: "family", .createdAt: now, .updatedAt: now,
            ]
            do {
                try await TableWriter(TagsTable.self, on: app.db).insert(values)
                XCTFail("\(database): a synced row was written without a revision")
            } catch WriteFailure.unrevisionedWrite(let table) {
                XCTAssertEqual(table, "tags")
            }
            let id = try await app.db.write(TagsTable.self, ownedBy: ada.id, at: now) { try await $0.insert(values) }
            do {
                try await app.db.write(TagsTable.self, ownedBy: grace.id, at: now) {
                    try await $0.update(id, ownedBy: ada.id, set: [.name: "Theirs"])
                }
                XCTFail("\(database): one account's row was changed in another's write")
            } catch WriteFailure.crossAccountWrite {}
            let names = try await app.db.plainRows(
                #"SELECT "name" FROM "tags" WHERE "user_id" = \#(bind: ada.id)"#, columns: ["name"]
            ).map { try $0.requiredText(0) }
            XCTAssertEqual(names, ["Family"], "\(database): nothing changed")
        }
    }

    func testTwoFirstRequestsAtOnceMakeTheDefaultsOnce() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await app.makeContact(for: account, ContactDraft(firstName: "Writer \(index)"))
                        let kinds = try await app.send(.GET, "/api/contactfieldtypes", headers: account.bearer)
                        XCTAssertEqual(kinds.status, .ok)
                    }
                }
                try await group.waitForAll()
            }
            for table in ["genders", "contact_field_types"] {
                let names = try await app.db.plainRows(
                    #"SELECT "name" FROM "\#(unsafeRaw: table)" WHERE "user_id" = \#(bind: account.id)"#,
                    columns: ["name"]
                ).map { try $0.requiredText(0) }
                XCTAssertEqual(names.count, Set(names).count, "\(database): \(table) seeded once: \(names)")
            }
        }
    }

    func testOneAccountsWriteCannotHoldAnothers() async throws {
        try await forEachDatabase { app, clock, database in
            let ada = try await app.makeAccount()
            let grace = try await app.makeAccount(email: "grace@example.com")
            let before = try await RevisionCounter.latest(for: ada.id, on: app.db)
            do {
                try await app.db.write(ownedBy: ada.id, at: clock.now) { db in
                    try await db.write(ownedBy: grace.id, at: clock.now) { _ in }
                }
                XCTFail("\(database): a write of one account inside another's went through")
            } catch WriteFailure.crossAccountWrite {}
            let adas = try await RevisionCounter.latest(for: ada.id, on: app.db)
            XCTAssertEqual(adas, before, "the refused transaction took nothing")
        }
    }
}
