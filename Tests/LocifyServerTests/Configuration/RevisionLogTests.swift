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
            let before = try await RevisionCounter.latest(for: account.id, on: app.db)
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
