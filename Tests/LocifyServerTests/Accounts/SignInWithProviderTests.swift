import Crypto
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor
import _CryptoExtras

@testable import LocifyServer

/// Signing in with an OpenID Connect provider, against a local stand-in provider that signs its tokens:
/// a first sign-in makes an account, an address already an account's waits for its password, Settings
/// links and unlinks, and every bad answer is refused without signing anyone in.
final class SignInWithProviderTests: XCTestCase {
    private struct Started {
        let state: String
        let nonce: String
        let challenge: String
    }

    /// The app's clock (the tests' fixed one), which the tokens' times are checked against.
    private var now = Date()

    private func configure(_ app: Application, issuer: String) {
        now = app.dependencies.now()
        app.dependencies.http = LiveHTTPClient(client: .shared, userAgent: "Locify/test")
        app.locifyConfig.openIDProviders = [
            OpenIDProviderConfig(
                name: "test", label: "Test ID", issuer: issuer, clientID: "locify", clientSecret: "s3cret")
        ]
    }

    /// Follows the log-in page's button to the provider: what the sign-in sent.
    private func start(_ browser: WebClient, _ path: String = "/login/with/test", post: Bool = false) async throws
        -> Started
    {
        let response = post ? try await browser.post(path, form: [:]) : try await browser.get(path)
        XCTAssertEqual(response.status, .seeOther, response.text)
        let location = try XCTUnwrap(response.headers.first(name: .location))
        let items = URLComponents(string: location)?.queryItems ?? []
        func item(_ name: String) throws -> String { try XCTUnwrap(items.first { $0.name == name }?.value, name) }
        XCTAssertEqual(try item("redirect_uri"), "http://127.0.0.1:8080/login/with/test/callback")
        return Started(state: try item("state"), nonce: try item("nonce"), challenge: try item("code_challenge"))
    }

    private func claims(_ started: Started, issuer: String, _ changes: [String: Any] = [:]) -> [String: Any] {
        let now = self.now.timeIntervalSince1970
        var claims: [String: Any] = [
            "iss": issuer, "aud": "locify", "sub": "person-1", "exp": now + 300, "iat": now, "nonce": started.nonce,
            "email": "ada@example.org", "email_verified": true, "name": "Ada Lovelace",
        ]
        for (key, value) in changes { claims[key] = value }
        return claims
    }

    /// The provider's answer, as the browser brings it back.
    private func finish(
        _ browser: WebClient, _ provider: StandInProvider, _ started: Started, idToken: String, code: String = "code",
        challenge: String? = nil
    ) async throws -> XCTHTTPResponse {
        provider.codes.withLockedValue { $0[code] = (challenge ?? started.challenge, idToken) }
        return try await browser.get("/login/with/test/callback?code=\(code)&state=\(started.state)")
    }

    private func isSignedIn(_ browser: WebClient) async throws -> Bool {
        try await browser.get("/settings").status == .ok
    }

    func testAFirstSignInMakesAnAccountAndTheNextSignsIntoIt() async throws {
        try await forEachDatabase { app, _, database in
            try await StandInProvider.serving { provider, standIn in
                self.configure(app, issuer: standIn.baseURL)
                let browser = WebClient(app: app)
                let login = try await browser.get("/login")
                XCTAssertTrue(
                    login.text.contains(#"<a class="button" href="/login/with/test">Sign in with Test ID</a>"#))
                let started = try await self.start(browser)
                let answer = try await self.finish(
                    browser, provider, started,
                    idToken: try provider.sign(self.claims(started, issuer: standIn.baseURL)))
                XCTAssertEqual(answer.status, .seeOther, "\(database): \(answer.text)")
                XCTAssertEqual(answer.headers.first(name: .location), "/map")
                XCTAssertNil(browser.cookies[OpenIDWebController.stateCookie], "the sign-in's cookie is spent too")
                let signedIn1 = try await self.isSignedIn(browser)
                XCTAssertTrue(signedIn1)
                let settings = try await browser.get("/settings")
                XCTAssertTrue(settings.text.contains(#"value="Ada Lovelace""#), "named as the provider says")
                XCTAssertTrue(settings.text.contains("linked as ada@example.org"), settings.text)
                XCTAssertTrue(settings.text.contains("Your account has no password yet"))
                let sent = try XCTUnwrap(provider.tokenRequests.withLockedValue { $0.last })
                XCTAssertEqual(ProofKey(verifier: sent["code_verifier"] ?? "").challenge, started.challenge)

                // Signing in again: the same account, found by the provider's subject.
                let again = WebClient(app: app)
                let second = try await self.start(again)
                let back = try await self.finish(
                    again, provider, second, idToken: try provider.sign(self.claims(second, issuer: standIn.baseURL)))
                XCTAssertEqual(back.status, .seeOther, back.text)
                let users = try await app.count(UsersTable.self)
                XCTAssertEqual(users, 1, "\(database): no second account")

                // Its only way in cannot be unlinked.
                let refused = try await browser.post("/settings/sign-in/test/unlink", form: [:])
                XCTAssertEqual(refused.status, .seeOther)
                let after = try await browser.get("/settings")
                XCTAssertTrue(after.text.contains("This is the only way into the account"), after.text)
                XCTAssertTrue(after.text.contains("linked as ada@example.org"))
                let noPassword = WebClient(app: app)
                _ = try await noPassword.get("/login")
                let tried = try await noPassword.post("/login", form: ["email": "ada@example.org", "password": ""])
                XCTAssertEqual(tried.status, .unauthorized, "no password opens an account made by a provider")

                // Its first password needs no current one; then the provider can go.
                let password = try await browser.post(
                    "/settings/password",
                    form: [
                        "current_password": "", "new_password": "engines1843", "password_confirmation": "engines1843",
                    ])
                XCTAssertEqual(password.status, .seeOther, password.text)
                let unlinked = try await browser.post("/settings/sign-in/test/unlink", form: [:])
                XCTAssertEqual(unlinked.status, .seeOther)
                let last = try await browser.get("/settings")
                XCTAssertTrue(last.text.contains("Test ID is no longer linked to your account."), last.text)
                let byPassword = WebClient(app: app)
                _ = try await byPassword.get("/login")
                let loggedIn = try await byPassword.post(
                    "/login", form: ["email": "ada@example.org", "password": "engines1843"])
                XCTAssertEqual(loggedIn.status, .seeOther, loggedIn.text)
            }
        }
    }

    /// An address that is already an account's links only after that account's password: never by the
    /// address alone.
    func testAnExistingAccountIsLinkedOnlyWithItsPassword() async throws {
        try await forEachDatabase { app, _, database in
            try await StandInProvider.serving { provider, standIn in
                self.configure(app, issuer: standIn.baseURL)
                let owner = WebClient(app: app)
                _ = try await owner.register(name: "Ada", email: "ada@example.org", password: "analytical")
                let visitor = WebClient(app: app)
                let started = try await self.start(visitor)
                let answer = try await self.finish(
                    visitor, provider, started,
                    idToken: try provider.sign(self.claims(started, issuer: standIn.baseURL)))
                XCTAssertEqual(answer.status, .ok, "\(database): \(answer.text)")
                XCTAssertTrue(answer.text.contains("Link Test ID to your account"))
                let signedIn2 = try await self.isSignedIn(visitor)
                XCTAssertFalse(signedIn2, "not by the address alone")
                let wrong = try await visitor.post(
                    "/login/link", form: ["token": Self.token(in: answer.text), "password": "guess"])
                XCTAssertEqual(wrong.status, .unauthorized)
                XCTAssertTrue(wrong.text.contains("That is not the password of ada@example.org."))
                let signedIn3 = try await self.isSignedIn(visitor)
                XCTAssertFalse(signedIn3)
                let right = try await visitor.post(
                    "/login/link", form: ["token": Self.token(in: wrong.text), "password": "analytical"])
                XCTAssertEqual(right.status, .seeOther, right.text)
                let signedIn4 = try await self.isSignedIn(visitor)
                XCTAssertTrue(signedIn4)
                let users = try await app.count(UsersTable.self)
                XCTAssertEqual(users, 1)
                let spent = try await visitor.post(
                    "/login/link", form: ["token": Self.token(in: wrong.text), "password": "analytical"])
                XCTAssertNotEqual(spent.status, .seeOther, "a link is made once")

                // Linked now: the provider alone signs in. Unlinked in Settings (a password remains).
                let later = WebClient(app: app)
                let next = try await self.start(later)
                let direct = try await self.finish(
                    later, provider, next, idToken: try provider.sign(self.claims(next, issuer: standIn.baseURL)))
                XCTAssertEqual(direct.status, .seeOther, direct.text)
                let unlinked = try await owner.post("/settings/sign-in/test/unlink", form: [:])
                XCTAssertEqual(unlinked.status, .seeOther)
                let settings = try await owner.get("/settings")
                XCTAssertTrue(settings.text.contains("Test ID is no longer linked to your account."), settings.text)

                // Linked again from Settings: the sign-in started there links instead of signing in.
                _ = try await owner.get("/settings")
                let linking = try await self.start(owner, "/settings/sign-in/test/link", post: true)
                let linked = try await self.finish(
                    owner, provider, linking,
                    idToken: try provider.sign(self.claims(linking, issuer: standIn.baseURL, ["sub": "person-2"])))
                XCTAssertEqual(linked.status, .seeOther, linked.text)
                XCTAssertEqual(linked.headers.first(name: .location), "/settings#sign-in-heading")
                let identities = try await app.count(UserIdentitiesTable.self)
                XCTAssertEqual(identities, 1)
            }
        }
    }

    /// Forged, expired, wrong-audience and wrong-issuer tokens, a replayed state, an answer brought by
    /// another browser, a code the provider refuses for its PKCE verifier, a cancelled sign-in, and a
    /// closed registration: each refused, nobody signed in, no account made.
    func testEveryBadAnswerIsRefused() async throws {
        try await forEachDatabase { app, _, database in
            try await StandInProvider.serving { provider, standIn in
                self.configure(app, issuer: standIn.baseURL)
                let forger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
                let base = standIn.baseURL
                let now = self.now.timeIntervalSince1970
                let cases: [(String, (Started) throws -> String, String)] = [
                    ("forged", { try provider.sign(self.claims($0, issuer: base), with: forger) }, "signature"),
                    ("expired", { try provider.sign(self.claims($0, issuer: base, ["exp": now - 3_600])) }, "expired"),
                    (
                        "another application's",
                        { try provider.sign(self.claims($0, issuer: base, ["aud": "someone-else"])) },
                        "another application"
                    ),
                    (
                        "another issuer's",
                        { try provider.sign(self.claims($0, issuer: "https://evil.example")) }, "another server"
                    ),
                    (
                        "another sign-in's", { try provider.sign(self.claims($0, issuer: base, ["nonce": "old"])) },
                        "nonce"
                    ),
                ]
                for (label, token, message) in cases {
                    let browser = WebClient(app: app)
                    let started = try await self.start(browser)
                    let answer = try await self.finish(browser, provider, started, idToken: try token(started))
                    XCTAssertEqual(answer.status, .badRequest, "\(database) \(label): \(answer.text)")
                    XCTAssertTrue(answer.text.contains(message), "\(label): \(answer.text)")
                    let signedIn5 = try await self.isSignedIn(browser)
                    XCTAssertFalse(signedIn5, label)
                }

                // A good answer, then the same answer again: the state is spent.
                let browser = WebClient(app: app)
                let started = try await self.start(browser)
                // Even with the browser's cookie of it, copied before it was spent.
                let stateCookie = try XCTUnwrap(browser.cookies[OpenIDWebController.stateCookie])
                let token = try provider.sign(self.claims(started, issuer: base))
                let first = try await self.finish(browser, provider, started, idToken: token)
                XCTAssertEqual(first.status, .seeOther)
                let replay = WebClient(app: app)
                replay.extraHeaders.replaceOrAdd(
                    name: .cookie, value: "\(OpenIDWebController.stateCookie)=\(stateCookie)")
                let replayed = try await self.finish(replay, provider, started, idToken: token, code: "again")
                XCTAssertEqual(replayed.status, .unprocessableEntity, replayed.text)
                XCTAssertTrue(replayed.text.contains("not one this server started"), replayed.text)

                // Brought by another browser (no state cookie): refused before the code is exchanged.
                let victim = WebClient(app: app)
                let attacker = WebClient(app: app)
                let planted = try await self.start(attacker)
                let brought = try await self.finish(
                    victim, provider, planted, idToken: try provider.sign(self.claims(planted, issuer: base)))
                XCTAssertEqual(brought.status, .badRequest)
                XCTAssertTrue(brought.text.contains("not started in this browser"), brought.text)

                // A code the provider issued for another challenge: the verifier this server sends fails.
                let stolen = WebClient(app: app)
                let flow = try await self.start(stolen)
                let mismatched = try await self.finish(
                    stolen, provider, flow, idToken: try provider.sign(self.claims(flow, issuer: base)),
                    challenge: ProofKey.random().challenge)
                XCTAssertEqual(mismatched.status, .badGateway, mismatched.text)
                XCTAssertTrue(mismatched.text.contains("invalid_grant"), mismatched.text)
                let signedIn6 = try await self.isSignedIn(stolen)
                XCTAssertFalse(signedIn6)

                // Cancelled at the provider; an unknown provider.
                let cancelled = WebClient(app: app)
                let cancelledFlow = try await self.start(cancelled)
                let denied = try await cancelled.get(
                    "/login/with/test/callback?error=access_denied&state=\(cancelledFlow.state)")
                XCTAssertEqual(denied.status, .badRequest)
                XCTAssertTrue(denied.text.contains("did not finish (access_denied)"), denied.text)
                let unknown = try await cancelled.get("/login/with/nobody")
                XCTAssertEqual(unknown.status, .notFound)

                // An address the provider has not confirmed makes no account.
                let unconfirmed = WebClient(app: app)
                let unconfirmedFlow = try await self.start(unconfirmed)
                let notVouched = try await self.finish(
                    unconfirmed, provider, unconfirmedFlow,
                    idToken: try provider.sign(
                        self.claims(
                            unconfirmedFlow, issuer: base,
                            ["sub": "other", "email": "grace@example.org", "email_verified": false])))
                XCTAssertEqual(notVouched.status, .unprocessableEntity, notVouched.text)
                XCTAssertTrue(notVouched.text.contains("has not confirmed your e-mail address"), notVouched.text)

                // Registration closed: a new person is not given an account.
                app.locifyConfig.registration = .closed
                let closed = WebClient(app: app)
                let closedFlow = try await self.start(closed)
                let refused = try await self.finish(
                    closed, provider, closedFlow,
                    idToken: try provider.sign(
                        self.claims(closedFlow, issuer: base, ["sub": "new", "email": "new@example.org"])))
                XCTAssertEqual(refused.status, .forbidden, refused.text)
                let users = try await app.count(UsersTable.self)
                XCTAssertEqual(users, 1, "\(database): only the first good sign-in made an account")
            }
        }
    }

    static func token(in html: String) throws -> String {
        let marker = #"name="token" value=""#
        let start = try XCTUnwrap(html.range(of: marker), "the page holds the waiting link's token")
        let rest = html[start.upperBound...]
        return String(rest.prefix { $0 != "\"" })
    }
}

/// Facebook Login against a stand-in Graph API: the dialog, the code's exchange, `/me` with the app
/// secret's proof.
final class SignInWithFacebookTests: XCTestCase {
    func testFacebookSignsInThroughItsGraphAPI() async throws {
        let codes = NIOLockedValueBox<[String: String]>([:])
        let proofs = NIOLockedValueBox<[String]>([])
        let serve: StandInRoutes = { routes in
            routes.get("oauth", "access_token") { request -> Response in
                let code = request.query[String.self, at: "code"] ?? ""
                guard request.query[String.self, at: "client_secret"] == "app-secret",
                    request.query[String.self, at: "code_verifier"] != nil,
                    let token = codes.withLockedValue({ $0.removeValue(forKey: code) })
                else {
                    return StandInProvider.json(
                        ["error": ["message": "Invalid verification code format."]], status: .badRequest)
                }
                return StandInProvider.json(["access_token": token, "token_type": "bearer"])
            }
            routes.get("me") { request -> Response in
                let token = request.query[String.self, at: "access_token"] ?? ""
                let proof = HMAC<SHA256>.authenticationCode(
                    for: Array(token.utf8), using: SymmetricKey(data: Array("app-secret".utf8))
                ).map { String(format: "%02x", $0) }.joined()
                proofs.withLockedValue { $0.append(request.query[String.self, at: "appsecret_proof"] ?? "") }
                guard request.query[String.self, at: "appsecret_proof"] == proof else {
                    return StandInProvider.json(["error": ["message": "Invalid appsecret_proof"]], status: .badRequest)
                }
                return StandInProvider.json(["id": "10150", "name": "Grace Hopper", "email": "grace@example.org"])
            }
        }
        try await forEachDatabase { app, _, database in
            try await withStandIn(serve) { standIn in
                app.dependencies.http = LiveHTTPClient(client: .shared, userAgent: "Locify/test")
                app.locifyConfig.openIDProviders = try LocifyConfig.resolve(environment: [
                    "LOCIFY_OIDC_PROVIDERS": "facebook", "LOCIFY_OIDC_FACEBOOK_CLIENT_ID": "app-id",
                    "LOCIFY_OIDC_FACEBOOK_CLIENT_SECRET": "app-secret", "LOCIFY_OIDC_FACEBOOK_ISSUER": standIn.baseURL,
                ]).openIDProviders
                XCTAssertEqual(app.locifyConfig.openIDProviders.first?.kind, .facebook)
                let browser = WebClient(app: app)
                let login = try await browser.get("/login")
                XCTAssertTrue(login.text.contains(">Sign in with Facebook</a>"), "\(database)")
                let started = try await browser.get("/login/with/facebook")
                let location = try XCTUnwrap(started.headers.first(name: .location))
                XCTAssertTrue(
                    location.hasPrefix("https://www.facebook.com/v19.0/dialog/oauth?client_id=app-id"), location)
                let items = URLComponents(string: location)?.queryItems ?? []
                let state = try XCTUnwrap(items.first { $0.name == "state" }?.value)
                XCTAssertEqual(items.first { $0.name == "scope" }?.value, "email,public_profile")

                codes.withLockedValue { $0["fb-code"] = "fb-token" }
                let back = try await browser.get("/login/with/facebook/callback?code=fb-code&state=\(state)")
                XCTAssertEqual(back.status, .seeOther, back.text)
                let settings = try await browser.get("/settings")
                XCTAssertEqual(settings.status, .ok)
                XCTAssertTrue(settings.text.contains(#"value="Grace Hopper""#))
                XCTAssertTrue(settings.text.contains("linked as grace@example.org"))
                XCTAssertFalse(proofs.withLockedValue { $0 }.isEmpty)

                // A code Facebook does not know: refused, nobody signed in.
                let other = WebClient(app: app)
                let second = try await other.get("/login/with/facebook")
                let secondState = try XCTUnwrap(
                    URLComponents(string: second.headers.first(name: .location) ?? "")?.queryItems?.first {
                        $0.name == "state"
                    }?.value)
                let refused = try await other.get("/login/with/facebook/callback?code=forged&state=\(secondState)")
                XCTAssertEqual(refused.status, .badGateway, refused.text)
                XCTAssertTrue(refused.text.contains("Invalid verification code format."), refused.text)
                let stillOut = try await other.get("/settings")
                XCTAssertNotEqual(stillOut.status, .ok)
            }
        }
    }
}

/// Sign in with Apple against a stand-in: the answer as a form POST, and the client secret an ES256 JWT
/// signed with the team's key.
final class SignInWithAppleTests: XCTestCase {
    func testAppleAnswersByFormPostAndIsPaidWithASignedClientSecret() async throws {
        let teamKey = P256.Signing.PrivateKey()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID()).p8")
        try teamKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        try await forEachDatabase { app, _, database in
            try await StandInProvider.serving { provider, standIn in
                app.dependencies.http = LiveHTTPClient(client: .shared, userAgent: "Locify/test")
                app.locifyConfig.openIDProviders = try LocifyConfig.resolve(environment: [
                    "LOCIFY_OIDC_PROVIDERS": "apple", "LOCIFY_OIDC_APPLE_ISSUER": standIn.baseURL,
                    "LOCIFY_OIDC_APPLE_CLIENT_ID": "org.example.locify", "LOCIFY_OIDC_APPLE_TEAM_ID": "TEAM123456",
                    "LOCIFY_OIDC_APPLE_KEY_ID": "KEY9876543", "LOCIFY_OIDC_APPLE_PRIVATE_KEY_FILE": keyFile.path,
                ]).openIDProviders
                let browser = WebClient(app: app)
                let started = try await browser.get("/login/with/apple")
                let location = try XCTUnwrap(started.headers.first(name: .location))
                let items = URLComponents(string: location)?.queryItems ?? []
                func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
                XCTAssertEqual(item("response_mode"), "form_post", "\(database): \(location)")
                XCTAssertEqual(item("scope"), "openid name email")
                let state = try XCTUnwrap(item("state"))
                let now = app.dependencies.now().timeIntervalSince1970
                let token = try provider.sign([
                    "iss": standIn.baseURL, "aud": "org.example.locify", "sub": "001234.abcd", "exp": now + 300,
                    "iat": now, "nonce": item("nonce") ?? "", "email": "ada@privaterelay.appleid.com",
                    "email_verified": "true",
                ])
                provider.codes.withLockedValue { $0["apple-code"] = (item("code_challenge") ?? "", token) }

                // Apple's page posts the answer back: no CSRF token, no cookie of this site.
                XCTAssertEqual(item("redirect_uri"), "http://127.0.0.1:8080/oauth/callback/apple")
                let posted = try await app.send(
                    .POST, "/oauth/callback/apple", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "code=apple-code&state=\(state)"))
                XCTAssertEqual(posted.status, .seeOther, posted.text)
                let hop = try XCTUnwrap(posted.headers.first(name: .location))
                XCTAssertEqual(hop, "/login/with/apple/callback?code=apple-code&state=\(state)")
                let back = try await browser.get(hop)
                XCTAssertEqual(back.status, .seeOther, back.text)
                let settings = try await browser.get("/settings")
                XCTAssertTrue(settings.text.contains("linked as ada@privaterelay.appleid.com"), settings.text)

                // The client secret: an ES256 JWT from the team, for this service, signed with the team's key.
                let secret = try XCTUnwrap(provider.tokenRequests.withLockedValue { $0.last }?["client_secret"])
                let parts = secret.split(separator: ".").map(String.init)
                XCTAssertEqual(parts.count, 3)
                let header = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(Base64URL.decode(parts[0]))))
                let claims = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(Base64URL.decode(parts[1]))))
                XCTAssertEqual((header as? [String: Any])?["kid"] as? String, "KEY9876543")
                XCTAssertEqual((header as? [String: Any])?["alg"] as? String, "ES256")
                let body = try XCTUnwrap(claims as? [String: Any])
                XCTAssertEqual(body["iss"] as? String, "TEAM123456")
                XCTAssertEqual(body["sub"] as? String, "org.example.locify")
                XCTAssertEqual(body["aud"] as? String, "https://appleid.apple.com")
                let signature = try P256.Signing.ECDSASignature(
                    rawRepresentation: try XCTUnwrap(Base64URL.decode(parts[2])))
                XCTAssertTrue(
                    teamKey.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
            }
        }
        // A key file that holds no key stops the start, naming the variable.
        XCTAssertThrowsError(
            try LocifyConfig.resolve(environment: [
                "LOCIFY_OIDC_PROVIDERS": "apple", "LOCIFY_OIDC_APPLE_CLIENT_ID": "x", "LOCIFY_OIDC_APPLE_TEAM_ID": "T",
                "LOCIFY_OIDC_APPLE_KEY_ID": "K", "LOCIFY_OIDC_APPLE_PRIVATE_KEY_FILE": "/nonexistent.p8",
            ])
        ) { error in XCTAssertTrue("\(error)".contains("LOCIFY_OIDC_APPLE_PRIVATE_KEY_FILE"), "\(error)") }
    }
}
