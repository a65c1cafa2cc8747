import Foundation

/// One OpenID Connect provider people may sign in with (`LOCIFY_OIDC_PROVIDERS` names them; each one's
/// `LOCIFY_OIDC_<NAME>_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`, `_LABEL` and `_SCOPES` describe it).
public struct OpenIDProviderConfig: Sendable, Equatable {
    /// The short name in addresses (`/login/with/google`) and in the variables' names.
    public var name: String
    /// What the sign-in button says after "Sign in with".
    public var label: String
    /// The issuer, whose `/.well-known/openid-configuration` says where everything else is.
    public var issuer: String
    public var clientID: String
    /// Nil for a public client (PKCE alone).
    public var clientSecret: String?
    public var scopes: [String]
    /// How the provider is spoken to: OpenID Connect, or Facebook's OAuth 2 and Graph API.
    public var kind: Kind

    public enum Kind: String, Sendable, Equatable {
        case openID
        /// `issuer` is then the Graph API's address (`https://graph.facebook.com/v19.0`).
        case facebook
    }

    /// Sign in with Apple's client secret is a short-lived ES256 JWT signed with the team's key
    /// (`LOCIFY_OIDC_APPLE_TEAM_ID`, `_KEY_ID`, `_PRIVATE_KEY_FILE`), and its answer comes as a form POST.
    public var appleKey: AppleKey?

    public struct AppleKey: Sendable, Equatable {
        public var teamID: String
        public var keyID: String
        /// The `.p8` file's PEM (PKCS #8).
        public var privateKeyPEM: String

        public init(teamID: String, keyID: String, privateKeyPEM: String) {
            self.teamID = teamID
            self.keyID = keyID
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// Facebook's Graph API, whose version its sign-in dialog shares.
    public static let facebookGraph = "https://graph.facebook.com/v19.0"
    public static let facebookDialog = "https://www.facebook.com/v19.0/dialog/oauth"

    public init(
        name: String, label: String, issuer: String, clientID: String, clientSecret: String?,
        scopes: [String] = ["openid", "email", "profile"], kind: Kind = .openID, appleKey: AppleKey? = nil
    ) {
        self.kind = kind
        self.appleKey = appleKey
        self.name = name
        self.label = label
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
    }

    /// The labels of the well-known providers; any other is its name, capitalised.
    static let knownLabels = [
        "google": "Google", "keycloak": "Keycloak", "authentik": "Authentik", "authelia": "Authelia",
        "gitlab": "GitLab", "microsoft": "Microsoft", "facebook": "Facebook", "apple": "Apple",
    ]

    /// The providers the environment describes, in the order `LOCIFY_OIDC_PROVIDERS` names them; a name
    /// without its issuer or client id, or an issuer that is not an http(s) address, stops the start.
    static func providers(environment: [String: String]) throws -> [OpenIDProviderConfig] {
        guard let list = LocifyConfig.nonEmpty(environment["LOCIFY_OIDC_PROVIDERS"]) else { return [] }
        var providers: [OpenIDProviderConfig] = []
        for raw in list.split(separator: ",") {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, name.count <= 32, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else {
                throw LocifyConfig.Problem.invalid(
                    variable: "LOCIFY_OIDC_PROVIDERS", value: list,
                    expected: "short names of letters and digits separated by commas (google,keycloak)")
            }
            guard !providers.contains(where: { $0.name == name }) else {
                throw LocifyConfig.Problem.invalid(
                    variable: "LOCIFY_OIDC_PROVIDERS", value: list, expected: "each provider named once")
            }
            let prefix = "LOCIFY_OIDC_\(name.uppercased())_"
            // Facebook speaks OAuth 2 and its Graph API, not OpenID Connect: its address is known, as Apple's.
            let kind: Kind = name == "facebook" ? .facebook : .openID
            let defaultIssuer = kind == .facebook ? facebookGraph : name == "apple" ? "https://appleid.apple.com" : nil
            guard let issuer = LocifyConfig.nonEmpty(environment[prefix + "ISSUER"]) ?? defaultIssuer else {
                throw LocifyConfig.Problem.invalid(
                    variable: prefix + "ISSUER", value: "",
                    expected: "the issuer of \(name), e.g. https://accounts.google.com")
            }
            guard let url = URL(string: issuer), ["https", "http"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw LocifyConfig.Problem.invalid(
                    variable: prefix + "ISSUER", value: issuer, expected: "an https:// address")
            }
            guard let clientID = LocifyConfig.nonEmpty(environment[prefix + "CLIENT_ID"]) else {
                throw LocifyConfig.Problem.invalid(
                    variable: prefix + "CLIENT_ID", value: "", expected: "the client id \(name) gave this server")
            }
            let scopes =
                LocifyConfig.nonEmpty(environment[prefix + "SCOPES"]).map {
                    $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                }
                ?? (kind == .facebook
                    ? ["email", "public_profile"]
                    : name == "apple" ? ["openid", "name", "email"] : ["openid", "email", "profile"])
            let appleKey = name == "apple" ? try appleKey(prefix: prefix, environment: environment) : nil
            providers.append(
                OpenIDProviderConfig(
                    name: name,
                    label: LocifyConfig.nonEmpty(environment[prefix + "LABEL"]) ?? knownLabels[name]
                        ?? name.prefix(1).uppercased() + name.dropFirst(),
                    issuer: issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer, clientID: clientID,
                    clientSecret: LocifyConfig.nonEmpty(environment[prefix + "CLIENT_SECRET"]),
                    scopes: kind == .facebook || scopes.contains("openid") ? scopes : ["openid"] + scopes, kind: kind,
                    appleKey: appleKey))
        }
        return providers
    }

    /// Apple's team, key id and private key; a key file that cannot be read, or that holds no P-256 key,
    /// stops the start.
    private static func appleKey(prefix: String, environment: [String: String]) throws -> AppleKey {
        guard let team = LocifyConfig.nonEmpty(environment[prefix + "TEAM_ID"]) else {
            throw LocifyConfig.Problem.invalid(variable: prefix + "TEAM_ID", value: "", expected: "your Apple team id")
        }
        guard let keyID = LocifyConfig.nonEmpty(environment[prefix + "KEY_ID"]) else {
            throw LocifyConfig.Problem.invalid(
                variable: prefix + "KEY_ID", value: "", expected: "the id of the Sign in with Apple key")
        }
        guard let path = LocifyConfig.nonEmpty(environment[prefix + "PRIVATE_KEY_FILE"]),
            let pem = try? String(contentsOfFile: path, encoding: .utf8), AppleClientSecret.isKey(pem)
        else {
            throw LocifyConfig.Problem.invalid(
                variable: prefix + "PRIVATE_KEY_FILE", value: environment[prefix + "PRIVATE_KEY_FILE"] ?? "",
                expected: "the path of the .p8 key file Apple gave (a P-256 private key)")
        }
        return AppleKey(teamID: team, keyID: keyID, privateKeyPEM: pem)
    }
}
