import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import NIOCore

/// Talks to one OpenID Connect provider: its discovery document, the address a sign-in starts at, the
/// code's exchange for tokens, and the ID token's check against the provider's keys. Discovery and keys
/// are kept for the process; the keys are read again once when a token names one not known (rotation).
final class OpenIDClient: Sendable {
    let provider: OpenIDProviderConfig
    let http: any HTTPFetching
    private let cached = NIOLockedValueBox<(discovery: Discovery?, keys: JSONWebKeySet?)>((nil, nil))

    init(provider: OpenIDProviderConfig, http: any HTTPFetching) {
        self.provider = provider
        self.http = http
    }

    /// What `/.well-known/openid-configuration` says.
    struct Discovery: Sendable, Equatable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let keysURL: String
    }

    func discovery() async throws -> Discovery {
        if let known = cached.withLockedValue({ $0.discovery }) { return known }
        let object = try await fetchJSON(provider.issuer + "/.well-known/openid-configuration")
        guard let issuer = object["issuer"] as? String, let authorize = object["authorization_endpoint"] as? String,
            let token = object["token_endpoint"] as? String, let keys = object["jwks_uri"] as? String
        else {
            throw OutsideServiceError(
                service: provider.label, reason: .unreadable("its discovery document lacks an endpoint"))
        }
        // Core Discovery §4.3: the document's issuer must be the one configured, or tokens could be taken
        // from a server pretending to be it.
        guard issuer == provider.issuer || issuer == provider.issuer + "/" else {
            throw OutsideServiceError(
                service: provider.label,
                reason: .unreadable("its discovery document names another issuer (\(issuer))"))
        }
        let found = Discovery(
            issuer: issuer, authorizationEndpoint: authorize, tokenEndpoint: token, keysURL: keys)
        cached.withLockedValue { $0.discovery = found }
        return found
    }

    /// Where the person's browser is sent to sign in: the authorization code flow with PKCE (S256).
    func authorizationURL(state: String, nonce: String, proofKey: ProofKey, redirectURI: String) async throws
        -> String
    {
        let endpoint = try await discovery().authorizationEndpoint
        var components = URLComponents(string: endpoint) ?? URLComponents()
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: provider.clientID),
                URLQueryItem(name: "redirect_uri", value: redirectURI),
                URLQueryItem(name: "scope", value: provider.scopes.joined(separator: " ")),
                URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce),
                URLQueryItem(name: "code_challenge", value: proofKey.challenge),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        // Apple sends its answer as a form POST when a name or an e-mail address is asked for.
        if provider.appleKey != nil {
            components.queryItems?.append(URLQueryItem(name: "response_mode", value: "form_post"))
        }
        return components.string ?? endpoint
    }

    /// Exchanges the code the provider sent back for its ID token, proving with the verifier that this
    /// server started the sign-in.
    func idToken(forCode code: String, proofKey: ProofKey, redirectURI: String, now: Date) async throws -> String {
        let endpoint = try await discovery().tokenEndpoint
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", provider.clientID), ("code_verifier", proofKey.verifier),
        ]
        if let key = provider.appleKey {
            form.append(("client_secret", try AppleClientSecret.make(key, clientID: provider.clientID, now: now)))
        } else if let secret = provider.clientSecret {
            form.append(("client_secret", secret))
        }
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` means a space in a form body; URLComponents leaves it as it is.
        let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let response = try await http.send(
            OutgoingRequest(
                method: .POST, url: endpoint,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                body: Data(body.utf8), maximumBodyBytes: 256 * 1024))
        guard response.isSuccess else {
            let reason = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
            throw OutsideServiceError(
                service: provider.label,
                reason: reason.map { .unreadable("it refused the code (\($0))") } ?? .status(Int(response.status.code)))
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let token = object["id_token"] as? String
        else {
            throw OutsideServiceError(service: provider.label, reason: .unreadable("its answer has no ID token"))
        }
        return token
    }

    /// The person the ID token names, once its signature, issuer, audience, times and nonce are checked.
    func claims(of idToken: String, nonce: String, now: Date) async throws -> OpenIDClaims {
        let issuer = try await discovery().issuer
        let known = try await keys()
        do throws(OpenIDTokenFailure) {
            return try OpenIDToken.verify(
                idToken, keys: known, issuer: issuer, clientID: provider.clientID, nonce: nonce, now: now)
        } catch .badSignature {
            // The provider may have rotated its keys since they were read: read them once more.
            let fresh = try await keys(refreshing: true)
            return try OpenIDToken.verify(
                idToken, keys: fresh, issuer: issuer, clientID: provider.clientID, nonce: nonce, now: now)
        }
    }

    private func keys(refreshing: Bool = false) async throws -> JSONWebKeySet {
        if !refreshing, let known = cached.withLockedValue({ $0.keys }) { return known }
        let response = try await http.send(
            OutgoingRequest(url: try await discovery().keysURL, maximumBodyBytes: 256 * 1024))
        guard response.isSuccess else {
            throw OutsideServiceError(service: provider.label, reason: .status(Int(response.status.code)))
        }
        let keys = try JSONWebKeySet(json: response.body)
        cached.withLockedValue { $0.keys = keys }
        return keys
    }

    private func fetchJSON(_ url: String) async throws -> [String: Any] {
        let response = try await http.send(OutgoingRequest(url: url, maximumBodyBytes: 256 * 1024))
        guard response.isSuccess else {
            throw OutsideServiceError(service: provider.label, reason: .status(Int(response.status.code)))
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw OutsideServiceError(service: provider.label, reason: .unreadable("not JSON"))
        }
        return object
    }
}

/// A provider a person signs in with: where the sign-in starts, and who came back with a code.
protocol SignInProviderClient: Sendable {
    var provider: OpenIDProviderConfig { get }
    func authorizationURL(state: String, nonce: String, proofKey: ProofKey, redirectURI: String) async throws
        -> String
    /// The person the code names, checked as the provider's protocol asks (`nonce` where it carries one).
    func person(forCode code: String, proofKey: ProofKey, nonce: String, redirectURI: String, now: Date)
        async throws -> OpenIDClaims
}

extension OpenIDClient: SignInProviderClient {
    func person(forCode code: String, proofKey: ProofKey, nonce: String, redirectURI: String, now: Date)
        async throws -> OpenIDClaims
    {
        let token = try await idToken(forCode: code, proofKey: proofKey, redirectURI: redirectURI, now: now)
        return try await claims(of: token, nonce: nonce, now: now)
    }
}
