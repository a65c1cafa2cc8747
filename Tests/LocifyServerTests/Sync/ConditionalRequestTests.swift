import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// ETags on the API's answers, 304 for what a client already has, 412 for a change to a record that
/// changed since the client read it; clients that send neither header are served as before.
final class ConditionalRequestTests: XCTestCase {
    private func headers(_ account: TestAccount, _ extra: [(String, String)]) -> HTTPHeaders {
        var headers = account.bearer
        for (name, value) in extra { headers.add(name: name, value: value) }
        return headers
    }

    func testAnUnchangedRecordAnswers304AndAChangeAnswersANewETag() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let first = try await app.send(.GET, "/api/contacts/\(ada)", headers: account.bearer)
            let tag = try XCTUnwrap(first.headers.first(name: .eTag), "\(database)")
            XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong tag: \(tag)")
            let again = try await app.send(
                .GET, "/api/contacts/\(ada)", headers: headers(account, [("If-None-Match", tag)]))
            XCTAssertEqual(again.status, .notModified, "\(database)")
            XCTAssertEqual(again.body.readableBytes, 0)
            XCTAssertEqual(again.headers.first(name: .eTag), tag)
            let weak = try await app.send(
                .GET, "/api/contacts/\(ada)", headers: headers(account, [("If-None-Match", "\"x\", W/\(tag)")]))
            XCTAssertEqual(weak.status, .notModified, "a weak match is enough to skip a download")

            // An address added changes what the contact shows, so its ETag changes too.
            _ = try await app.createdID(by: account, "/api/contacts/\(ada)/addresses", #"{"city":"Berlin"}"#)
            let changed = try await app.send(
                .GET, "/api/contacts/\(ada)", headers: headers(account, [("If-None-Match", tag)]))
            XCTAssertEqual(changed.status, .ok, "\(database)")
            XCTAssertNotEqual(changed.headers.first(name: .eTag), tag)
            XCTAssertTrue(changed.text.contains("Berlin"))
        }
    }

    func testAChangeWithAStaleIfMatchIsRefusedAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let note = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let read = try await app.send(.GET, "/api/contacts/\(note)", headers: account.bearer)
            let tag = try XCTUnwrap(read.headers.first(name: .eTag))
            // Another device changes it meanwhile.
            let other = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: account.bearer, json: #"{"nickname":"Countess"}"#)
            XCTAssertEqual(other.status, .ok)
            let stale = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: headers(account, [("If-Match", tag)]),
                json: #"{"nickname":"Enchantress"}"#)
            XCTAssertEqual(stale.status, .preconditionFailed, "\(database): \(stale.text)")
            XCTAssertEqual(stale.errorCode, 412)
            XCTAssertTrue(stale.text.contains("changed since you read it"), stale.text)
            let kept = try await app.send(.GET, "/api/contacts/\(note)", headers: account.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<ContactResource>.self).data.nickname, "Countess")
            let staleDelete = try await app.send(
                .DELETE, "/api/contacts/\(note)", headers: headers(account, [("If-Match", tag)]))
            XCTAssertEqual(staleDelete.status, .preconditionFailed, "\(database)")

            let current = try XCTUnwrap(kept.headers.first(name: .eTag))
            let fresh = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: headers(account, [("If-Match", "\"other\", \(current)")]),
                json: #"{"nickname":"Enchantress"}"#)
            XCTAssertEqual(fresh.status, .ok, "\(database): \(fresh.text)")
            let weak = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: headers(account, [("If-Match", "W/\(current)")]),
                json: #"{"nickname":"Weak"}"#)
            XCTAssertEqual(weak.status, .preconditionFailed, "a weak tag never matches If-Match")
            let any = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: headers(account, [("If-Match", "*")]),
                json: #"{"nickname":"Any"}"#)
            XCTAssertEqual(any.status, .ok)
            let plain = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: account.bearer, json: #"{"nickname":"Plain"}"#)
            XCTAssertEqual(plain.status, .ok, "no If-Match: Monica's behaviour")
            let latest = try await app.send(.GET, "/api/contacts/\(note)", headers: account.bearer)
            let deleted = try await app.send(
                .DELETE, "/api/contacts/\(note)",
                headers: headers(account, [("If-Match", try XCTUnwrap(latest.headers.first(name: .eTag)))]))
            XCTAssertEqual(deleted.status, .ok, "\(database)")
            let missing = try await app.send(
                .PUT, "/api/contacts/\(note)", headers: headers(account, [("If-Match", "*")]),
                json: #"{"nickname":"Gone"}"#)
            XCTAssertEqual(missing.status, .notFound, "a missing record answers as it would without")

            // A client reaching the server by name: the answer's URLs carry that name, and the ETag the
            // change is checked against is the one that client read.
            let named = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Grace"}"#)
            let host = headers(account, [("Host", "locify.example:8443")])
            let seen = try await app.send(.GET, "/api/contacts/\(named)", headers: host)
            XCTAssertTrue(seen.text.contains("http://locify.example:8443/api/contacts/\(named)"), "\(database)")
            var conditional = host
            conditional.add(name: "If-Match", value: try XCTUnwrap(seen.headers.first(name: .eTag)))
            let changed = try await app.send(
                .PUT, "/api/contacts/\(named)", headers: conditional, json: #"{"nickname":"Amazing"}"#)
            XCTAssertEqual(changed.status, .ok, "\(database): \(changed.text)")
        }
    }

    /// The condition is checked under the account's write lock: of changes sent at once with the same
    /// `If-Match`, exactly one goes ahead.
    func testOfChangesSentAtOnceWithTheSameIfMatchOneGoesAhead() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let contact = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let address = try await app.createdID(
                by: account, "/api/contacts/\(contact)/addresses", #"{"city":"Berlin"}"#)
            for round in 0..<3 {
                let read = try await app.send(.GET, "/api/addresses/\(address)", headers: account.bearer)
                let conditional = headers(account, [("If-Match", try XCTUnwrap(read.headers.first(name: .eTag)))])
                let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                    for writer in 0..<4 {
                        group.addTask {
                            try await app.send(
                                .PUT, "/api/addresses/\(address)",
                                headers: conditional,
                                json: #"{"street":"Writer \#(writer) round \#(round)"}"#
                            ).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                XCTAssertEqual(statuses.filter { $0 == .ok }.count, 1, "\(database): \(statuses)")
                XCTAssertEqual(statuses.filter { $0 == .preconditionFailed }.count, 3, "\(database): \(statuses)")
            }
        }
    }
}
