import Fluent
import LocifyAPI
import SQLKit
import XCTVapor

@testable import LocifyServer

/// The contact list kept by the account's revision (`RevisionAnswers`): served from memory until the
/// account's next write, and then exactly what a server without kept answers would build.
final class RevisionAnswersTests: XCTestCase {
    func testTheContactListIsKeptUntilTheAccountsNextWriteAndThenAnswersAsBuilt() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(
                by: account, "/api/contacts", #"{"first_name":"Ada","last_name":"Byron"}"#)
            let ben = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ben"}"#)
            let first = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(first.status, .ok, first.text)
            let firstTag = try XCTUnwrap(first.headers.first(name: .eTag))

            // Served from memory: a row changed behind the revision log's back does not show...
            let sql = try XCTUnwrap(app.db as? any SQLDatabase)
            try await sql.raw(#"UPDATE "contacts" SET "first_name" = 'Behind' WHERE "id" = \#(literal: ada)"#).run()
            let kept = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(kept.text, first.text, "\(database)")
            XCTAssertEqual(kept.headers.first(name: .eTag), firstTag)
            var known = account.bearer
            known.add(name: .ifNoneMatch, value: firstTag)
            let unchanged = try await app.send(.GET, "/api/contacts", headers: known)
            XCTAssertEqual(unchanged.status, .notModified)

            // ...and every write through the product shows at the next read, exactly as built afresh.
            let genders = try await app.send(.GET, "/api/genders", headers: account.bearer)
            let genderID = try XCTUnwrap((try genders.json()["data"] as? [[String: Any]])?.first?["id"] as? Int)
            let writes: [(HTTPMethod, String, String?)] = [
                (.PUT, "/api/contacts/\(ben)", #"{"nickname":"Benny","gender_id":\#(genderID)}"#),
                (.POST, "/api/addresses", #"{"contact_id":\#(ada),"name":"Home","city":"Lyon","country":"FR"}"#),
                (.POST, "/api/notes", #"{"contact_id":\#(ada),"body":"Likes maps"}"#),
                (.POST, "/api/contacts/\(ben)/setTags", #"{"tags":["family"]}"#),
                (.PUT, "/api/genders/\(genderID)", #"{"name":"Gent","type":"M"}"#),
                (
                    .POST, "/api/reminders",
                    #"{"contact_id":\#(ada),"title":"Call","initial_date":"2024-06-01","frequency_type":"one_time"}"#
                ),
                (.DELETE, "/api/contacts/\(ben)", nil),
            ]
            var previous = kept.text
            for (method, path, json) in writes {
                let written = try await app.send(method, path, headers: account.bearer, json: json)
                XCTAssertTrue([.ok, .created].contains(written.status), "\(method) \(path): \(written.text)")
                let listed = try await app.send(.GET, "/api/contacts", headers: account.bearer)
                app.revisionAnswers = RevisionAnswers()
                let built = try await app.send(.GET, "/api/contacts", headers: account.bearer)
                XCTAssertEqual(listed.text, built.text, "\(database): after \(method) \(path)")
                XCTAssertEqual(listed.headers.first(name: .eTag), built.headers.first(name: .eTag))
                XCTAssertNotEqual(listed.text, previous, "\(database): \(method) \(path) does not show")
                previous = listed.text
            }
            XCTAssertTrue(previous.contains(#""first_name":"Behind""#))
            XCTAssertTrue(previous.contains(#""number_of_notes":1"#))
        }
    }

    func testEachAccountAddressAndDayHasItsOwnAnswer() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "other@example.com", name: "Other")
            let ada = try await app.createdID(
                by: account, "/api/contacts", #"{"first_name":"Ada","email":"ada@example.com"}"#)
            _ = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ben"}"#)
            _ = try await app.createdID(by: other, "/api/contacts", #"{"first_name":"Olga"}"#)

            let mine = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            let theirs = try await app.send(.GET, "/api/contacts", headers: other.bearer)
            XCTAssertTrue(mine.text.contains("Ada") && !mine.text.contains("Olga"), "\(database)")
            XCTAssertTrue(theirs.text.contains("Olga") && !theirs.text.contains("Ada"), "\(database)")

            let one = try await app.send(.GET, "/api/contacts?limit=1", headers: account.bearer)
            XCTAssertEqual((try one.json()["data"] as? [Any])?.count, 1)
            let withFields = try await app.send(
                .GET, "/api/contacts", headers: account.bearer, json: #"{"with":"contactfields"}"#)
            XCTAssertTrue(withFields.text.contains(#""contactFields":[{"#), withFields.text)
            let plain = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(plain.text, mine.text)
            XCTAssertFalse(plain.text.contains("contactFields"))

            // A day later the avatar links are signed for a later expiry; so is the kept answer.
            let expiry = { (text: String) in text.components(separatedBy: "expires=").dropFirst().first?.prefix(10) }
            clock.advance(by: 86_400)
            let tomorrow = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertNotEqual(expiry(tomorrow.text), expiry(mine.text))
            let shown = try await app.send(.GET, "/api/contacts/\(ada)", headers: account.bearer)
            XCTAssertEqual(expiry(shown.text), expiry(tomorrow.text))
        }
    }
}
