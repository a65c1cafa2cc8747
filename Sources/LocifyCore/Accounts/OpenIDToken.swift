import Crypto
import Foundation
import _CryptoExtras

/// Base64url without padding (RFC 4648 §5), as JSON Web Tokens and PKCE write bytes.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Nil for text that is not base64url (padding is accepted too).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("="), base64.count % 4 != 1 else {
            return Data(base64Encoded: base64).map(Array.init)
        }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}

/// Proof Key for Code Exchange (RFC 7636): the verifier the server keeps for one sign-in and the S256
/// challenge it sends the provider, so a code stolen on its way back is worth nothing without it.
public struct ProofKey: Sendable, Equatable {
    public let verifier: String

    public init(verifier: String) {
        self.verifier = verifier
    }

    /// 32 random bytes: a 43-character verifier, the shortest the RFC allows and 256 bits of chance.
    public static func random() -> ProofKey {
        var generator = SystemRandomNumberGenerator()
        return ProofKey(verifier: Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    public var challenge: String { Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) }
}

/// A provider's signing keys, as its `jwks_uri` serves them: RSA (RS256) and P-256 (ES256) keys by id.
public struct JSONWebKeySet: Sendable {
    enum Key: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        /// The point, x then y: this version of Crypto's P-256 key is not `Sendable`, its bytes are.
        case p256([UInt8])
    }

    let keys: [(id: String?, key: Key)]

    /// The keys of a JWKS document; keys of other kinds (and for encryption) are left out.
    public init(json: Data) throws(OpenIDTokenFailure) {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let entries = root["keys"] as? [[String: Any]]
        else { throw .unreadableKeys }
        var keys: [(String?, Key)] = []
        for entry in entries where (entry["use"] as? String ?? "sig") == "sig" {
            let id = entry["kid"] as? String
            switch entry["kty"] as? String {
            case "RSA":
                guard let n = (entry["n"] as? String).flatMap(Base64URL.decode),
                    let e = (entry["e"] as? String).flatMap(Base64URL.decode),
                    let key = try? _RSA.Signing.PublicKey(n: n, e: e)
                else { continue }
                keys.append((id, .rsa(key)))
            case "EC" where entry["crv"] as? String == "P-256":
                guard let x = (entry["x"] as? String).flatMap(Base64URL.decode),
                    let y = (entry["y"] as? String).flatMap(Base64URL.decode), x.count == 32, y.count == 32,
                    (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil
                else { continue }
                keys.append((id, .p256(x + y)))
            default: continue
            }
        }
        self.keys = keys
    }

    /// The keys a token signed with `algorithm` and naming `keyID` may be checked against.
    func candidates(algorithm: String, keyID: String?) -> [Key] {
        keys.filter { entry in
            guard keyID == nil || entry.id == nil || entry.id == keyID else { return false }
            switch (algorithm, entry.key) {
            case ("RS256", .rsa), ("ES256", .p256): return true
            default: return false
            }
        }.map(\.key)
    }
}

/// What a verified ID token says of the person.
public struct OpenIDClaims: Sendable, Equatable {
    /// The provider's own, stable name for the person: with the issuer, what an account is linked by.
    public var subject: String
    public var email: String?
    public var isEmailVerified: Bool
    public var name: String?

    public init(subject: String, email: String? = nil, isEmailVerified: Bool = false, name: String? = nil) {
        self.subject = subject
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.name = name
    }
}

/// Why an ID token was refused; each is a sign-in refused with its reason.
public enum OpenIDTokenFailure: Error, Equatable, CustomStringConvertible {
    case malformed
    case unreadableKeys
    case unsupportedAlgorithm(String)
    case badSignature
    case wrongIssuer
    case wrongAudience
    case expired
    case notYetValid
    case wrongNonce
    case noSubject

    public var description: String {
        switch self {
        case .malformed: "The provider's ID token is not a signed JSON Web Token."
        case .unreadableKeys: "The provider's signing keys could not be read."
        case .unsupportedAlgorithm(let algorithm):
            "The provider signed its ID token with \(algorithm); Locify accepts RS256 and ES256."
        case .badSignature: "The ID token's signature is not the provider's."
        case .wrongIssuer: "The ID token was issued by another server than the provider."
        case .wrongAudience: "The ID token was issued for another application."
        case .expired: "The ID token has expired."
        case .notYetValid: "The ID token is not valid yet."
        case .wrongNonce: "The ID token does not belong to this sign-in (its nonce differs)."
        case .noSubject: "The ID token names nobody (it has no subject)."
        }
    }
}

/// Checks an OpenID Connect ID token (Core 1.0 §3.1.3.7): its signature by one of the provider's keys,
/// its issuer, its audience (this client), its times and the nonce this sign-in sent.
public enum OpenIDToken {
    /// The person the token names, or why it is refused. `leeway` allows for clocks a little apart.
    public static func verify(
        _ token: String, keys: JSONWebKeySet, issuer: String, clientID: String, nonce: String?, now: Date,
        leeway: TimeInterval = 60
    ) throws(OpenIDTokenFailure) -> OpenIDClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any],
            let algorithm = header["alg"] as? String
        else { throw .malformed }
        guard ["RS256", "ES256"].contains(algorithm) else { throw .unsupportedAlgorithm(algorithm) }
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        let verified = keys.candidates(algorithm: algorithm, keyID: header["kid"] as? String).contains { key in
            switch key {
            case .rsa(let publicKey):
                guard let value = try? _RSA.Signing.RSASignature(rawRepresentation: signature) else { return false }
                return publicKey.isValidSignature(value, for: SHA256.hash(data: signed), padding: .insecurePKCS1v1_5)
            case .p256(let point):
                guard let publicKey = try? P256.Signing.PublicKey(rawRepresentation: point),
                    let value = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
                else { return false }
                return publicKey.isValidSignature(value, for: SHA256.hash(data: signed))
            }
        }
        guard verified else { throw .badSignature }
        guard claims["iss"] as? String == issuer else { throw .wrongIssuer }
        let audiences = (claims["aud"] as? [String]) ?? (claims["aud"] as? String).map { [$0] } ?? []
        guard audiences.contains(clientID) else { throw .wrongAudience }
        // With several audiences, the authorized party must be this client (Core §3.1.3.7, 4–5).
        if audiences.count > 1, let party = claims["azp"] as? String, party != clientID { throw .wrongAudience }
        let moment = now.timeIntervalSince1970
        guard let expires = (claims["exp"] as? NSNumber)?.doubleValue, moment < expires + leeway else {
            throw .expired
        }
        if let notBefore = (claims["nbf"] as? NSNumber)?.doubleValue, moment + leeway < notBefore {
            throw .notYetValid
        }
        if let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue, moment + leeway < issuedAt { throw .notYetValid }
        if let nonce, claims["nonce"] as? String != nonce { throw .wrongNonce }
        guard let subject = claims["sub"] as? String, !subject.isEmpty else { throw .noSubject }
        let verifiedEmail: Bool =
            switch claims["email_verified"] {
            case let flag as Bool: flag
            // Some providers (Apple among them) send it as text.
            case let text as String: text == "true"
            default: false
            }
        return OpenIDClaims(
            subject: subject, email: claims["email"] as? String, isEmailVerified: verifiedEmail,
            name: claims["name"] as? String)
    }
}
