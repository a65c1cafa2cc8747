import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Monica's compliance routes: the server's policy without a token, and what the signed-in person
/// agreed to (404 until they agree, as Monica answers).
final class ComplianceTests: XCTestCase {
    func testThePolicyIsPublicAndAgreeingToItIsKept() async throws {
        try await forEachDatabase { app, clock, database in
            let list = try await app.send(.GET, "/api/compliance")
            XCTAssertEqual(list.status, .ok, "\(database): \(list.text)")
            let page = try list.decoded(PageResource<PolicyResource>.self)
            XCTAssertEqual(page.data.map(\.id), [1])
            XCTAssertTrue(
                list.text.hasPrefix(
                    #"{"data":[{"id":1,"object":"term","term_version":"1","term_content":"This Locify server is run by"#
                ),
                list.text)
            XCTAssertTrue(
                list.text.contains(#""created_at":"2026-11-29T00:00:00Z","updated_at":"2026-11-29T00:00:00Z"}]"#))
            let one = try await app.send(.GET, "/api/compliance/1")
            XCTAssertEqual(try one.decoded(DataEnvelope<PolicyResource>.self).data, page.data[0])
            let none = try await app.send(.GET, "/api/compliance/2")
            XCTAssertEqual(none.status, .notFound, none.text)
            XCTAssertEqual(try none.decoded(ErrorEnvelope.self).error.errorCode, 31)

            let account = try await app.makeAccount()
            let unsigned = try await app.send(.GET, "/api/me/compliance", headers: account.bearer)
            XCTAssertEqual(unsigned.status, .notFound, unsigned.text)
            let anonymous = try await app.send(.GET, "/api/me/compliance")
            XCTAssertEqual(anonymous.status, .unauthorized)

            for json in ["{}", #"{"ip_address": null}"#, #"{"ip_address": " "}"#] {
                let refused = try await app.send(.POST, "/api/me/compliance", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
                XCTAssertEqual(
                    try refused.decoded(ErrorEnvelope.self).error.message, .list(["The ip address field is required."]))
            }
            let signed = try await app.send(
                .POST, "/api/me/compliance", headers: account.bearer, json: #"{"ip_address": "192.0.2.7"}"#)
            XCTAssertEqual(signed.status, .ok, signed.text)
            let me = try await app.send(.GET, "/api/me", headers: account.bearer)
            let meJSON = String(me.text.dropFirst(#"{"data":"#.count).dropLast())
            XCTAssertEqual(
                signed.text,
                #"{"data":{"signed":true,"signed_date":"2024-05-04T10:06:05Z","ip_address":"192.0.2.7","user":"#
                    + meJSON + #","term":"# + String(one.text.dropFirst(#"{"data":"#.count).dropLast()) + "}}")

            // Agreeing again keeps the first agreement.
            clock.advance(by: 60)
            _ = try await app.send(
                .POST, "/api/me/compliance", headers: account.bearer, json: #"{"ip_address": "198.51.100.1"}"#)
            let all = try await app.send(.GET, "/api/me/compliance", headers: account.bearer)
            let agreements = try all.decoded(DataEnvelope<[SignedPolicyResource]>.self).data
            XCTAssertEqual(agreements.map(\.ipAddress), ["192.0.2.7"])
            XCTAssertEqual(agreements.map(\.signedDate), ["2024-05-04T10:06:05Z"])
            let shown = try await app.send(.GET, "/api/me/compliance/1", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<SignedPolicyResource>.self).data, agreements[0])
            let unknown = try await app.send(.GET, "/api/me/compliance/2", headers: account.bearer)
            XCTAssertEqual(unknown.status, .notFound)
            let other = try await app.makeAccount(email: "grace@example.com")
            let theirs = try await app.send(.GET, "/api/me/compliance", headers: other.bearer)
            XCTAssertEqual(theirs.status, .notFound, "another person's agreement is theirs alone")
        }
    }
}
