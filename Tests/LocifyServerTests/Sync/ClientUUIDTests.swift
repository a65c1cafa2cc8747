import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// A create that names its own uuid can be retried: the retry answers the record the first try made,
/// never a twin; a uuid that is not a UUID, or that another account's record has, is refused.
final class ClientUUIDTests: XCTestCase {
    private func count(_ app: Application, _ table: String, ownedBy ownerID: Int) async throws -> Int {
        try await app.db.plainRows(
            #"SELECT COUNT(*) AS "n" FROM "\#(unsafeRaw: table)" WHERE "user_id" = \#(bind: ownerID)"#,
            columns: ["n"]
        ).first?.requiredInteger(0) ?? 0
    }

    /// Every create route, its table, and a body (`UUID` is where the uuid goes).
    private func creates(contact: Int) -> [(path: String, table: String, body: String, created: HTTPStatus)] {
        let photo = Data(TestImages.png(width: 8, height: 8)).base64EncodedString()
        return [
            ("/api/contacts", "contacts", #"{"uuid":"UUID","first_name":"Ada","email":"ada@example.com"}"#, .created),
            ("/api/addresses", "addresses", #"{"uuid":"UUID","contact_id":\#(contact),"city":"Berlin"}"#, .created),
            ("/api/contacts/\(contact)/addresses", "addresses", #"{"uuid":"UUID","city":"Paris"}"#, .created),
            ("/api/notes", "notes", #"{"uuid":"UUID","contact_id":\#(contact),"body":"Tea."}"#, .created),
            ("/api/contacts/\(contact)/notes", "notes", #"{"uuid":"UUID","body":"Coffee."}"#, .created),
            ("/api/tasks", "tasks", #"{"uuid":"UUID","contact_id":\#(contact),"title":"Call"}"#, .ok),
            ("/api/contacts/\(contact)/tasks", "tasks", #"{"uuid":"UUID","title":"Write"}"#, .ok),
            (
                "/api/reminders", "reminders",
                #"{"uuid":"UUID","contact_id":\#(contact),"title":"Rent","initial_date":"2030-01-31","frequency_type":"one_time"}"#,
                .created
            ),
            (
                "/api/contacts/\(contact)/reminders", "reminders",
                #"{"uuid":"UUID","title":"Tax","initial_date":"2030-04-30","frequency_type":"one_time"}"#, .created
            ),
            (
                "/api/contactfields", "contact_fields",
                #"{"uuid":"UUID","contact_id":\#(contact),"contact_field_type_id":2,"data":"+44 1"}"#, .created
            ),
            (
                "/api/contacts/\(contact)/contactfields", "contact_fields",
                #"{"uuid":"UUID","contact_field_type_id":2,"data":"+44 2"}"#, .created
            ),
            ("/api/contactfieldtypes", "contact_field_types", #"{"uuid":"UUID","name":"Mastodon"}"#, .created),
            ("/api/genders", "genders", #"{"uuid":"UUID","name":"Non-binary","type":"N"}"#, .created),
            ("/api/tags", "tags", #"{"uuid":"UUID","name":"Family"}"#, .created),
            ("/api/categories", "place_categories", #"{"uuid":"UUID","name":"Bakeries"}"#, .created),
            (
                "/api/places", "places",
                #"{"uuid":"UUID","name":"Flore","latitude":48.85,"longitude":2.33,"category_id":1}"#, .created
            ),
            ("/api/photos", "photos", #"{"uuid":"UUID","contact_id":\#(contact),"data":"\#(photo)"}"#, .created),
            ("/api/contacts/\(contact)/photos", "photos", #"{"uuid":"UUID","data":"\#(photo)"}"#, .created),
        ]
    }

    func testARetriedCreateAnswersTheRecordTheFirstTryMade() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Grace")).id
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
            XCTAssertEqual(categories.status, .ok)
            for create in creates(contact: contact) {
                let uuid = UUID().uuidString.lowercased()
                let body = create.body.replacingOccurrences(of: "UUID", with: uuid)
                let first = try await app.send(.POST, create.path, headers: account.bearer, json: body)
                XCTAssertEqual(first.status, create.created, "\(database) \(create.path): \(first.text)")
                let before = try await count(app, create.table, ownedBy: account.id)
                let retry = try await app.send(.POST, create.path, headers: account.bearer, json: body)
                XCTAssertEqual(retry.status, .ok, "\(database) \(create.path): \(retry.text)")
                XCTAssertEqual(
                    try retry.decoded(DataEnvelope<SyncRecord>.self).data,
                    try first.decoded(DataEnvelope<SyncRecord>.self).data,
                    "\(database) \(create.path): the same record")
                let after = try await count(app, create.table, ownedBy: account.id)
                XCTAssertEqual(after, before, "\(database) \(create.path): no twin")
                let id = try XCTUnwrap((try first.json()["data"] as? [String: Any])?["id"] as? Int)
                let stored = try await app.db.plainRows(
                    #"SELECT "uuid" FROM "\#(unsafeRaw: create.table)" WHERE "id" = \#(bind: id)"#, columns: ["uuid"])
                XCTAssertEqual(
                    try stored.first?.uuid(0)?.uuidString.lowercased(), uuid, "\(database) \(create.path): its uuid")
            }
        }
    }

    func testABadOrAnotherAccountsUUIDIsRefusedAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let ada = try await app.makeAccount()
            let grace = try await app.makeAccount(email: "grace@example.com")
            let uuid = UUID().uuidString
            let made = try await app.send(
                .POST, "/api/contacts", headers: ada.bearer, json: #"{"uuid":"\#(uuid)","first_name":"Ada"}"#)
            XCTAssertEqual(made.status, .created, "\(database)")
            let badRetry = try await app.send(
                .POST, "/api/contacts", headers: ada.bearer, json: #"{"uuid":"\#(uuid)","first_name":""}"#)
            XCTAssertEqual(badRetry.status, .unprocessableEntity, "\(database): a bad body is refused, retry or not")
            let taken = try await app.send(
                .POST, "/api/contacts", headers: grace.bearer, json: #"{"uuid":"\#(uuid)","first_name":"Grace"}"#)
            XCTAssertEqual(taken.status, .unprocessableEntity, "\(database): \(taken.text)")
            XCTAssertTrue(taken.text.contains("This uuid cannot be used"), taken.text)
            XCTAssertFalse(taken.text.contains("Ada"), "nothing of the other record")
            for bad in [#""not-a-uuid""#, #""""#, "42", "true"] {
                let refused = try await app.send(
                    .POST, "/api/notes", headers: grace.bearer, json: #"{"uuid":\#(bad),"contact_id":1,"body":"x"}"#)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(bad): \(refused.text)")
                XCTAssertTrue(refused.text.contains("The uuid must be a UUID"), refused.text)
            }
            let graces = try await count(app, "contacts", ownedBy: grace.id)
            let notes = try await count(app, "notes", ownedBy: grace.id)
            XCTAssertEqual([graces, notes], [0, 0], "\(database): nothing made")
            let withNull = try await app.send(
                .POST, "/api/contacts", headers: grace.bearer, json: #"{"uuid":null,"first_name":"Grace"}"#)
            XCTAssertEqual(withNull.status, .created, "a null uuid is a create without one")
        }
    }

    func testRetriesSentAtOnceMakeOneRecord() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let uuid = UUID().uuidString
            let statuses = try await withThrowingTaskGroup(of: (HTTPStatus, Int?).self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let response = try await app.send(
                            .POST, "/api/contacts", headers: account.bearer,
                            json: #"{"uuid":"\#(uuid)","first_name":"Ada"}"#)
                        let id = (try? response.json()["data"] as? [String: Any])?["id"] as? Int
                        return (response.status, id)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(Set(statuses.map(\.1)).count, 1, "\(database): one record: \(statuses)")
            XCTAssertTrue(statuses.allSatisfy { [.created, .ok].contains($0.0) }, "\(statuses)")
            let contacts = try await count(app, "contacts", ownedBy: account.id)
            XCTAssertEqual(contacts, 1, "\(database)")
        }
    }
}
