import Crypto
import Foundation
import LocifyCore

/// Sign in with Apple's client secret: an ES256 JWT the server signs with its team's key, naming the team
/// (`iss`), the service id (`sub`) and Apple (`aud`), good for five minutes.
enum AppleClientSecret {
    static func isKey(_ pem: String) -> Bool {
        (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil
    }

    static func make(_ key: OpenIDProviderConfig.AppleKey, clientID: String, now: Date) throws -> String {
        let privateKey = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
        let header: [String: Any] = ["alg": "ES256", "kid": key.keyID]
        let issued = Int(now.timeIntervalSince1970)
        let claims: [String: Any] = [
            "iss": key.teamID, "iat": issued, "exp": issued + 300, "aud": "https://appleid.apple.com", "sub": clientID,
        ]
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
        let signature = try privateKey.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
