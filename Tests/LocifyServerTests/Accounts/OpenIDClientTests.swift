import Crypto
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor
import _CryptoExtras

@testable import LocifyServer

/// A local OpenID Connect provider: discovery, keys, and a token endpoint that checks the PKCE verifier
/// against the challenge of the sign-in it was given, as a real provider does.
final class StandInProvider: Sendable {
    let rsa: _RSA.Signing.PrivateKey
    let keyID = "stand-in-1"
    /// The challenge of each code handed out, and the ID token it is exchanged for.
    let codes = NIOLockedValueBox<[String: (challenge: String, idToken: String)]>([:])
    let tokenRequests = NIOLockedValueBox<[[String: String]]>([])

    init() throws {
        rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    func routes(issuer: @escaping @Sendable () -> String) -> StandInRoutes {
        { routes in
            routes.get(".well-known", "openid-configuration") { _ -> Response in
                let base = issuer()
                return Self.json([
                    "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                    "jwks_uri": base + "/keys",
                ])
            }
            routes.get("keys") { _ -> Response in
                let primitives = try self.rsa.publicKey.getKeyPrimitives()
                return Self.json([
                    "keys": [
                        [
                            "kty": "RSA", "kid": self.keyID, "use": "sig", "n": Base64URL.encode(primitives.modulus),
                            "e": Base64URL.encode(primitives.publicExponent),
                        ]
                    ]
                ])
            }
            routes.post("token") { request -> Response in
                let form = try request.content.decode([String: String].self)
                self.tokenRequests.withLockedValue { $0.append(form) }
                guard let code = form["code"], let issued = self.codes.withLockedValue({ $0.removeValue(forKey: code) })
                else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
                guard let verifier = form["code_verifier"], ProofKey(verifier: verifier).challenge == issued.challenge
                else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
                return Self.json(["access_token": "x", "token_type": "Bearer", "id_token": issued.idToken])
            }
        }
    }

    func sign(_ claims: [String: Any], keyID: String? = nil, with key: _RSA.Signing.PrivateKey? = nil) throws -> String
    {
        let header: [String: Any] = ["alg": "RS256", "typ": "JWT", "kid": keyID ?? self.keyID]
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
        let signature = try (key ?? rsa).signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// A provider served on loopback for `body`, its issuer the stand-in's address.
    static func serving(_ body: (StandInProvider, LocalStandIn) async throws -> Void) async throws {
        let provider = try StandInProvider()
        let issuer = NIOLockedValueBox("")
        try await withStandIn(provider.routes(issuer: { issuer.withLockedValue { $0 } })) { standIn in
            issuer.withLockedValue { $0 = standIn.baseURL }
            try await body(provider, standIn)
        }
    }

    static func json(_ object: Any, status: HTTPResponseStatus = .ok) -> Response {
        Response(
            status: status, headers: ["Content-Type": "application/json"],
            body: .init(data: (try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }
}

final class OpenIDClientTests: XCTestCase {
    func testProvidersAreConfiguredByEnvironmentAndMistakesStopTheStart() throws {
        let environment = [
            "LOCIFY_OIDC_PROVIDERS": "google, Keycloak", "LOCIFY_OIDC_GOOGLE_ISSUER": "https://accounts.google.com",
            "LOCIFY_OIDC_GOOGLE_CLIENT_ID": "123.apps.googleusercontent.com",
            "LOCIFY_OIDC_GOOGLE_CLIENT_SECRET": "s3cret",
            "LOCIFY_OIDC_KEYCLOAK_ISSUER": "https://id.example.org/realms/home/",
            "LOCIFY_OIDC_KEYCLOAK_CLIENT_ID": "locify", "LOCIFY_OIDC_KEYCLOAK_LABEL": "Home",
            "LOCIFY_OIDC_KEYCLOAK_SCOPES": "email profile",
        ]
        let providers = try LocifyConfig.resolve(environment: environment).openIDProviders
        XCTAssertEqual(
            providers,
            [
                OpenIDProviderConfig(
                    name: "google", label: "Google", issuer: "https://accounts.google.com",
                    clientID: "123.apps.googleusercontent.com", clientSecret: "s3cret"),
                OpenIDProviderConfig(
                    name: "keycloak", label: "Home", issuer: "https://id.example.org/realms/home", clientID: "locify",
                    clientSecret: nil, scopes: ["openid", "email", "profile"]),
            ])
        XCTAssertEqual(try LocifyConfig.resolve(environment: [:]).openIDProviders, [])
        for (change, variable) in [
            (["LOCIFY_OIDC_KEYCLOAK_ISSUER": ""], "LOCIFY_OIDC_KEYCLOAK_ISSUER"),
            (["LOCIFY_OIDC_KEYCLOAK_ISSUER": "id.example.org"], "LOCIFY_OIDC_KEYCLOAK_ISSUER"),
            (["LOCIFY_OIDC_GOOGLE_CLIENT_ID": ""], "LOCIFY_OIDC_GOOGLE_CLIENT_ID"),
            (["LOCIFY_OIDC_PROVIDERS": "google,google"], "LOCIFY_OIDC_PROVIDERS"),
            (["LOCIFY_OIDC_PROVIDERS": "my provider"], "LOCIFY_OIDC_PROVIDERS"),
        ] {
            XCTAssertThrowsError(try LocifyConfig.resolve(environment: environment.merging(change) { $1 })) { error in
                XCTAssertTrue("\(error)".contains(variable), "\(change): \(error)")
            }
        }
    }

    /// The whole exchange against the stand-in: the sign-in address carries state, nonce and the S256
    /// challenge; the code is exchanged with the verifier (a wrong one is refused by the provider); the
    /// ID token is checked, and a token signed by a key the provider does not publish is refused.
    func testASignInIsStartedExchangedAndItsTokenChecked() async throws {
        try await StandInProvider.serving { provider, standIn in
            let client = OpenIDClient(
                provider: OpenIDProviderConfig(
                    name: "test", label: "Test", issuer: standIn.baseURL, clientID: "locify", clientSecret: "s3cret"),
                http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"))
            let proofKey = ProofKey.random()
            let start = try await client.authorizationURL(
                state: "st4te", nonce: "n0nce", proofKey: proofKey,
                redirectURI: "http://127.0.0.1/login/with/test/callback")
            let items = URLComponents(string: start)?.queryItems ?? []
            func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
            XCTAssertTrue(start.hasPrefix(standIn.baseURL + "/authorize?"), start)
            XCTAssertEqual(item("response_type"), "code")
            XCTAssertEqual(item("client_id"), "locify")
            XCTAssertEqual(item("state"), "st4te")
            XCTAssertEqual(item("nonce"), "n0nce")
            XCTAssertEqual(item("scope"), "openid email profile")
            XCTAssertEqual(item("code_challenge_method"), "S256")
            XCTAssertEqual(item("code_challenge"), proofKey.challenge)

            let now = Date()
            let claims: [String: Any] = [
                "iss": standIn.baseURL, "aud": "locify", "sub": "user-7", "exp": now.timeIntervalSince1970 + 300,
                "iat": now.timeIntervalSince1970, "nonce": "n0nce", "email": "ada@example.org",
                "email_verified": true,
            ]
            let signed = try provider.sign(claims)
            provider.codes.withLockedValue { $0["c0de"] = (proofKey.challenge, signed) }
            let token = try await client.idToken(
                forCode: "c0de", proofKey: proofKey, redirectURI: "http://127.0.0.1/login/with/test/callback", now: now)
            let sent = try XCTUnwrap(provider.tokenRequests.withLockedValue { $0.last })
            XCTAssertEqual(sent["code_verifier"], proofKey.verifier)
            XCTAssertEqual(sent["client_secret"], "s3cret")
            let person = try await client.claims(of: token, nonce: "n0nce", now: now)
            XCTAssertEqual(person, OpenIDClaims(subject: "user-7", email: "ada@example.org", isEmailVerified: true))

            // A code used twice, or exchanged with another verifier, is refused by the provider.
            do {
                _ = try await client.idToken(
                    forCode: "c0de", proofKey: proofKey, redirectURI: "http://127.0.0.1/x", now: now)
                XCTFail("a code is good once")
            } catch let error as OutsideServiceError {
                XCTAssertTrue("\(error)".contains("invalid_grant"), "\(error)")
            }
            provider.codes.withLockedValue { $0["again"] = (proofKey.challenge, signed) }
            do {
                _ = try await client.idToken(
                    forCode: "again", proofKey: ProofKey.random(), redirectURI: "http://x", now: now)
                XCTFail("another verifier is refused")
            } catch let error as OutsideServiceError {
                XCTAssertTrue("\(error)".contains("invalid_grant"), "\(error)")
            }
            // Forged by a key the provider does not publish (the keys are read again first), expired, for
            // another client, or from another sign-in: each refused.
            let forger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            var expired = claims
            expired["exp"] = now.timeIntervalSince1970 - 3_600
            var elsewhere = claims
            elsewhere["aud"] = "another-app"
            for (token, failure) in [
                (try provider.sign(claims, with: forger), OpenIDTokenFailure.badSignature),
                (try provider.sign(expired), .expired), (try provider.sign(elsewhere), .wrongAudience),
            ] {
                do {
                    _ = try await client.claims(of: token, nonce: "n0nce", now: now)
                    XCTFail("\(failure) was taken")
                } catch {
                    XCTAssertEqual(error as? OpenIDTokenFailure, failure)
                }
            }
            do {
                _ = try await client.claims(of: token, nonce: "another-sign-in", now: now)
                XCTFail("a token of another sign-in was taken")
            } catch {
                XCTAssertEqual(error as? OpenIDTokenFailure, .wrongNonce)
            }
        }
    }
}
