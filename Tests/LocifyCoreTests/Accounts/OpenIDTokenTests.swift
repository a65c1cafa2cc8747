import Crypto
import Foundation
import XCTest
import _CryptoExtras

@testable import LocifyCore

/// ID tokens as a provider signs them, and every way one can be wrong: each refused with its reason.
final class OpenIDTokenTests: XCTestCase {
    /// A provider's keys and the tokens it signs.
    struct Signer {
        let rsa: _RSA.Signing.PrivateKey
        let ec = P256.Signing.PrivateKey()

        init() throws {
            rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        }

        var keySet: Data {
            get throws {
                let primitives = try rsa.publicKey.getKeyPrimitives()
                let point = ec.publicKey.rawRepresentation
                let keys: [[String: String]] = [
                    [
                        "kty": "RSA", "kid": "rsa-1", "use": "sig", "alg": "RS256",
                        "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent),
                    ],
                    [
                        "kty": "EC", "kid": "ec-1", "crv": "P-256", "x": Base64URL.encode(point.prefix(32)),
                        "y": Base64URL.encode(point.suffix(32)),
                    ],
                ]
                return try JSONSerialization.data(withJSONObject: ["keys": keys])
            }
        }

        func token(_ claims: [String: Any], algorithm: String = "RS256", keyID: String? = nil) throws -> String {
            var header: [String: Any] = ["alg": algorithm, "typ": "JWT"]
            header["kid"] = keyID ?? (algorithm == "ES256" ? "ec-1" : "rsa-1")
            let signingInput =
                Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
                + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
            let signature: [UInt8] =
                switch algorithm {
                case "ES256": Array(try ec.signature(for: Array(signingInput.utf8)).rawRepresentation)
                case "RS256":
                    Array(
                        try rsa.signature(for: Array(signingInput.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
                default: []
                }
            return signingInput + "." + Base64URL.encode(signature)
        }
    }

    static let issuer = "https://id.example.org"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "aud": "locify", "sub": "248289761001", "exp": now.timeIntervalSince1970 + 300,
            "iat": now.timeIntervalSince1970, "nonce": "n-0S6_WzA2Mj", "email": "ada@example.org",
            "email_verified": true, "name": "Ada Lovelace",
        ]
        for (key, value) in changes { claims[key] = value }
        return claims
    }

    private func verify(_ token: String, keys: Data, nonce: String? = "n-0S6_WzA2Mj") throws -> OpenIDClaims {
        try OpenIDToken.verify(
            token, keys: try JSONWebKeySet(json: keys), issuer: Self.issuer, clientID: "locify", nonce: nonce,
            now: Self.now)
    }

    func testTokensSignedWithTheProvidersRSAOrP256KeyAreAccepted() throws {
        let signer = try Signer()
        for algorithm in ["RS256", "ES256"] {
            let claims = try verify(try signer.token(Self.claims(), algorithm: algorithm), keys: try signer.keySet)
            XCTAssertEqual(
                claims,
                OpenIDClaims(
                    subject: "248289761001", email: "ada@example.org", isEmailVerified: true, name: "Ada Lovelace"),
                algorithm)
        }
        // Several audiences: this client among them, and the one it was given to.
        let shared = try signer.token(Self.claims(["aud": ["other", "locify"], "azp": "locify"]))
        XCTAssertEqual(try verify(shared, keys: try signer.keySet).subject, "248289761001")
        let unverified = try signer.token(Self.claims(["email_verified": "false"]))
        XCTAssertFalse(try verify(unverified, keys: try signer.keySet).isEmailVerified)
    }

    func testEveryWrongTokenIsRefusedWithItsReason() throws {
        let signer = try Signer()
        let stranger = try Signer()
        let keys = try signer.keySet
        let good = try signer.token(Self.claims())
        let parts = good.split(separator: ".").map(String.init)
        let tampered =
            parts[0] + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: Self.claims(["sub": "eve"])))
            + "." + parts[2]
        let unsigned =
            Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: Self.claims())) + "."
        let cases: [(String, String, OpenIDTokenFailure)] = [
            ("forged by another key", try stranger.token(Self.claims()), .badSignature),
            ("forged, naming the provider's key", try stranger.token(Self.claims(), keyID: "rsa-1"), .badSignature),
            ("its claims changed", tampered, .badSignature),
            ("unsigned", unsigned, .unsupportedAlgorithm("none")),
            ("expired", try signer.token(Self.claims(["exp": Self.now.timeIntervalSince1970 - 61])), .expired),
            (
                "issued in the future", try signer.token(Self.claims(["iat": Self.now.timeIntervalSince1970 + 600])),
                .notYetValid
            ),
            ("for another application", try signer.token(Self.claims(["aud": "someone-else"])), .wrongAudience),
            (
                "shared, given to another",
                try signer.token(Self.claims(["aud": ["locify", "other"], "azp": "other"])),
                .wrongAudience
            ),
            ("from another issuer", try signer.token(Self.claims(["iss": "https://evil.example"])), .wrongIssuer),
            ("from another sign-in", try signer.token(Self.claims(["nonce": "replayed"])), .wrongNonce),
            ("naming nobody", try signer.token(Self.claims(["sub": ""])), .noSubject),
            ("not a token", "not.a.token", .malformed),
        ]
        for (label, token, expected) in cases {
            XCTAssertThrowsError(try verify(token, keys: keys), label) { error in
                XCTAssertEqual(error as? OpenIDTokenFailure, expected, label)
            }
        }
        let hmac =
            Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: Self.claims())) + "." + Base64URL.encode([1])
        XCTAssertThrowsError(try verify(hmac, keys: keys)) { error in
            XCTAssertEqual(error as? OpenIDTokenFailure, .unsupportedAlgorithm("HS256"))
        }
        // Within a minute of its expiry a token is still taken: clocks are a little apart.
        let justExpired = try signer.token(Self.claims(["exp": Self.now.timeIntervalSince1970 - 30]))
        XCTAssertNoThrow(try verify(justExpired, keys: keys))
        XCTAssertThrowsError(try JSONWebKeySet(json: Data("<html>".utf8)))
    }

    /// RFC 7636, appendix B.
    func testTheProofKeysChallengeIsItsSHA256() {
        XCTAssertEqual(
            ProofKey(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge,
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let random = ProofKey.random()
        XCTAssertEqual(random.verifier.count, 43)
        XCTAssertNotEqual(random, ProofKey.random())
        XCTAssertEqual(Base64URL.decode(Base64URL.encode([0xFB, 0xFF, 0x01])), [0xFB, 0xFF, 0x01])
    }
}
