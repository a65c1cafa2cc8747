import Crypto
import Foundation
import LocifyCore

/// Facebook Login: OAuth 2 with its dialog, the code exchanged at the Graph API for an access token, and
/// the person read from `/me` with it. There is no ID token: the state (single use, bound to the browser)
/// and PKCE are the sign-in's checks, and every Graph call carries `appsecret_proof`, so a token taken
/// elsewhere cannot be used from here without the app's secret.
struct FacebookSignInClient: SignInProviderClient {
    let provider: OpenIDProviderConfig
    let http: any HTTPFetching

    func authorizationURL(state: String, nonce: String, proofKey: ProofKey, redirectURI: String) async throws
        -> String
    {
        var components = URLComponents(string: OpenIDProviderConfig.facebookDialog) ?? URLComponents()
        components.queryItems = [
            URLQueryItem(name: "client_id", value: provider.clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "scope", value: provider.scopes.joined(separator: ",")),
            URLQueryItem(name: "code_challenge", value: proofKey.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        return components.string ?? OpenIDProviderConfig.facebookDialog
    }

    func person(forCode code: String, proofKey: ProofKey, nonce: String, redirectURI: String, now: Date)
        async throws -> OpenIDClaims
    {
        guard let secret = provider.clientSecret else {
            throw OutsideServiceError(service: provider.label, reason: .notConfigured)
        }
        let exchanged = try await graph(
            "oauth/access_token",
            [
                ("client_id", provider.clientID), ("client_secret", secret), ("redirect_uri", redirectURI),
                ("code", code), ("code_verifier", proofKey.verifier),
            ])
        guard let token = exchanged["access_token"] as? String else {
            throw OutsideServiceError(service: provider.label, reason: .unreadable("its answer has no access token"))
        }
        let proof = HMAC<SHA256>.authenticationCode(
            for: Array(token.utf8), using: SymmetricKey(data: Array(secret.utf8))
        )
        .map { String(format: "%02x", $0) }.joined()
        let me = try await graph(
            "me", [("fields", "id,name,email"), ("access_token", token), ("appsecret_proof", proof)])
        guard let id = me["id"] as? String, !id.isEmpty else {
            throw OutsideServiceError(service: provider.label, reason: .unreadable("it named nobody"))
        }
        // Facebook gives only an address its user has confirmed.
        let email = me["email"] as? String
        return OpenIDClaims(subject: id, email: email, isEmailVerified: email != nil, name: me["name"] as? String)
    }

    private func graph(_ path: String, _ parameters: [(String, String)]) async throws -> [String: Any] {
        var components = URLComponents(string: provider.issuer + "/" + path) ?? URLComponents()
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        let url = (components.string ?? provider.issuer).replacingOccurrences(of: "+", with: "%2B")
        let response = try await http.send(OutgoingRequest(url: url, maximumBodyBytes: 256 * 1024))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        guard response.isSuccess, let object else {
            let message = ((object?["error"] as? [String: Any])?["message"] as? String)
            throw OutsideServiceError(
                service: provider.label,
                reason: message.map { .unreadable("it refused: \($0)") } ?? .status(Int(response.status.code)))
        }
        return object
    }
}
