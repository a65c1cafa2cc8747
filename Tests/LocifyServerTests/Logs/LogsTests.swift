import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `GET /api/logs` and `/api/contacts/{id}/logs`: every change to the account's records, one entry per
/// kind of record and what was done in each write, newest first, read-only.
final class LogsTests: XCTestCase {
    private func log(_ app: Application, _ account: TestAccount, _ path: String = "/api/logs") async throws
        -> [AuditLogResource]
    {
        try await app.send(.GET, path, headers: account.bearer).decoded(PageResource<AuditLogResource>.self).data
    }

    func testEveryChangeIsLoggedAsMonicaShowsIt() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let created = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json: #"{"first_name": "Ada", "email": "ada@example.com"}"#)
            let ada = try created.decoded(DataEnvelope<ContactResource>.self).data
            let first = try await app.send(.GET, "/api/logs", headers: account.bearer)
            XCTAssertEqual(first.status, .ok, "\(database): \(first.text)")
            let entries = try first.decoded(PageResource<AuditLogResource>.self).data
            // The account's first contact seeded its genders and kinds of field, which are changes too.
            XCTAssertEqual(
                entries.map(\.action),
                ["contactfield_created", "contact_created", "contactfieldtype_created", "gender_created"], first.text)
            let author = entries[1].author
            XCTAssertEqual(author.id, account.id)
            XCTAssertTrue(
                first.text.contains(
                    #"{"id":\#(entries[1].id),"object":"auditlog","author":{"id":\#(account.id),"name":"\#(author.name)"},"#
                        + #""action":"contact_created","objects":{"type":"contact","count":1,"ids":[\#(ada.id)],"#
                        + #""contact_id":\#(ada.id)},"audited_at":"2024-05-04T10:06:05Z","#
                        + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}"#), first.text)

            clock.advance(by: 60)
            _ = try await app.send(
                .PUT, "/api/contacts/\(ada.id)", headers: account.bearer, json: #"{"nickname": "Countess"}"#)
            let address = try await app.send(
                .POST, "/api/addresses", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "city": "London", "country": "GB"}"#
            ).decoded(DataEnvelope<AddressResource>.self).data
            _ = try await app.send(.DELETE, "/api/addresses/\(address.id)", headers: account.bearer)
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let all = try await log(app, account)
            XCTAssertEqual(
                all.prefix(6).map(\.action),
                [
                    "contact_created", "address_deleted", "address_created", "contact_updated",
                    "contactfield_created", "contact_created",
                ])
            XCTAssertEqual(all[1].objects.ids, [address.id])
            XCTAssertEqual(all[1].objects.contactID, ada.id)
            XCTAssertEqual(all[3].auditedAt, "2024-05-04T10:07:05Z")

            // A contact's own log: what was about it alone.
            let adas = try await log(app, account, "/api/contacts/\(ada.id)/logs")
            XCTAssertEqual(adas.count, 5)
            let byrons = try await log(app, account, "/api/contacts/\(byron.id)/logs")
            XCTAssertEqual(byrons.map(\.action), ["contact_created"])
            let one = try await app.send(.GET, "/api/logs/\(all[0].id)", headers: account.bearer)
            XCTAssertEqual(try one.decoded(DataEnvelope<AuditLogResource>.self).data, all[0])

            // Read-only, and the account's own.
            let written = try await app.send(.POST, "/api/logs", headers: account.bearer, json: "{}")
            XCTAssertEqual(written.status, .methodNotAllowed, written.text)
            let other = try await app.makeAccount(email: "grace@example.com")
            let theirs = try await log(app, other)
            XCTAssertEqual(theirs.count, 0)
            for path in ["/api/logs/\(all[0].id)", "/api/contacts/\(ada.id)/logs"] {
                let foreign = try await app.send(.GET, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
        }
    }

    func testARefusedChangeOfAPushLeavesNoEntry() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let before = try await log(app, account)
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [
                     {"id": 1, "type": "note", "op": "create", "uuid": "\#(UUID().uuidString.lowercased())",
                      "fields": {"contact_id": \#(ada.id), "body": "Kept"}},
                     {"id": 2, "type": "note", "op": "create", "uuid": "\#(UUID().uuidString.lowercased())",
                      "fields": {"contact_id": \#(ada.id), "body": ""}}]}
                    """#)
            XCTAssertEqual(
                try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied, .rejected],
                "\(database): \(pushed.text)")
            let after = try await log(app, account)
            XCTAssertEqual(after.count, before.count + 1, after.map(\.action).description)
            XCTAssertEqual(after.first?.action, "note_created")
            XCTAssertEqual(after.first?.objects.count, 1)
        }
    }
}
