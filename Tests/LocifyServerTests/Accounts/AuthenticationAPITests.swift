import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class AuthenticationAPITests: XCTestCase {
    func testRevokedTokenStopsWorkingAndLastUseIsRecorded() async throws {
        try await forEachDatabase { app, clock, _ in
            let account = try await app.makeAccount()
            let before = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(before.status, .ok)
            let token = try await unwrapAsync(try await app.storedTokens().first)
            XCTAssertEqual(token.lastUsedAt, clock.now)
            XCTAssertNotEqual(token.secretDigest, account.token, "only the digest is stored")
            XCTAssertEqual(token.secretDigest, PersonalToken.digest(account.token))

            try await app.accounts.revokeToken(token.id, of: account.id)
            let after = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(after.status, .unauthorized)
        }
    }

    func testMeAndRootShapes() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let user = try await unwrapAsync(try await app.storedUser(account.id)).user
            let me = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(
                me.text,
                """
                {"data":{"id":\(account.id),"uuid":"\(user.uuid.uuidString.lowercased())","object":"user","first_name":"Ada",\
                "last_name":"Lovelace","name":"Ada Lovelace","email":"ada@example.com","me_contact":null,"timezone":"UTC",\
                "locale":"en","account":{"id":\(account.id)},"created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}}
                """)
            let root = try await app.send(.GET, "/api", headers: account.bearer.merging(["Host": "locify.example"]))
            XCTAssertEqual(
                root.text,
                """
                {"success":{"message":"Welcome to Locify"},"links":{"contacts_url":"http://locify.example/api/contacts",\
                "addresses_url":"http://locify.example/api/addresses","countries_url":"http://locify.example/api/countries",\
                "reminders_url":"http://locify.example/api/reminders","places_url":"http://locify.example/api/places"}}
                """)
        }
    }

    func testOAuthLoginIssuesATokenAndIsThrottled() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let good = try await app.send(
                .POST, "/oauth/login", json: #"{"email":"ADA@example.com","password":"correct horse"}"#)
            XCTAssertEqual(good.status, .ok, "\(database)")
            let login = try good.decoded(OAuthLoginResource.self)
            let token = login.accessToken
            XCTAssertEqual(login.expiresIn, 31_536_000)
            XCTAssertGreaterThanOrEqual(token.count, 40)
            XCTAssertTrue(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            let me = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(token)"])
            XCTAssertEqual(me.status, .ok)

            // A form body works too, as older clients send.
            var formResponse: XCTHTTPResponse?
            try await app.test(
                .POST, "/oauth/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "email=ada%40example.com&password=correct+horse")
            ) { response async in formResponse = response }
            XCTAssertEqual(formResponse?.status, .ok)

            for attempt in 1...5 {
                let bad = try await app.send(
                    .POST, "/oauth/login", json: #"{"email":"ada@example.com","password":"wrong"}"#)
                XCTAssertEqual(bad.status, .unauthorized, "attempt \(attempt)")
                XCTAssertEqual(bad.text, #"{"error":{"message":"Not authorized","error_code":42}}"#)
            }
            // Sixth try in the same minute: locked out, even with the right password.
            let locked = try await app.send(
                .POST, "/oauth/login", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
            XCTAssertEqual(locked.status, .tooManyRequests)
            XCTAssertEqual(locked.headers.first(name: .retryAfter), "60")
            XCTAssertEqual(locked.errorCode, 34)

            clock.advance(by: 61)
            let later = try await app.send(
                .POST, "/oauth/login", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
            XCTAssertEqual(later.status, .ok)

            let unknown = try await app.send(
                .POST, "/oauth/login", json: #"{"email":"nobody@example.com","password":"correct horse"}"#)
            XCTAssertEqual(
                unknown.text, #"{"error":{"message":"Not authorized","error_code":42}}"#,
                "an unknown email looks like a wrong password")
            let unknownUser = try await app.accounts.authenticate(email: "nobody@example.com", password: "x")
            XCTAssertNil(unknownUser)

            // OAuth tokens expire after a year.
            clock.advance(by: 366 * 24 * 3600)
            let expired = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(token)"])
            XCTAssertEqual(expired.status, .unauthorized)
            let personal = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(personal.status, .ok, "personal tokens do not expire")
        }
    }

    func testTheTokenCacheForgetsRevokedTokensAtOnceAndOthersWithinSeconds() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let first = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(first.status, .ok, "\(database)")

            // Another instance deletes the token: this one may answer from its cache for a few seconds only.
            try await TableWriter(APITokensTable.self, on: app.db).delete(
                where: #""user_id" = \#(literal: account.id)"#)
            let cached = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(cached.status, .ok, "answered from the cache")
            clock.advance(by: TokenCache.lifetime)
            let expired = try await app.send(.GET, "/api/me", headers: account.bearer)
            XCTAssertEqual(expired.status, .unauthorized, "\(database): the cache lives \(TokenCache.lifetime) s")

            // A profile change on this instance shows at once.
            let (_, token) = try await app.accounts.createToken(for: account.id, label: "second")
            let headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
            _ = try await app.send(.GET, "/api/me", headers: headers)
            _ = try await app.accounts.updateProfile(
                of: account.id, with: AccountDraft(name: "Ada King", email: account.email, timezone: "Europe/London"))
            let renamed = try await app.send(.GET, "/api/me", headers: headers)
            XCTAssertEqual(try renamed.decoded(DataEnvelope<UserResource>.self).data.name, "Ada King")
        }
    }
}
