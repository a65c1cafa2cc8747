import Fluent
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Sign-in with an OpenID Connect provider: started here, finished when the provider sends the person
/// back. A provider's account is linked to a Locify account by the provider's `subject`, never by an
/// e-mail address: a first sign-in makes an account (when registration is open), or, when its address is
/// an account's, waits for that account's password before linking.
struct OpenIDSignIn {
    let database: any Database
    let accounts: AccountService
    let dependencies: LocifyDependencies
    let registration: RegistrationPolicy

    /// How long a sign-in sent to a provider, or a link waiting for its password, stays good.
    static let lifetime: TimeInterval = 10 * 60

    /// How a sign-in ended.
    enum Outcome: Equatable {
        case signedIn(userID: Int)
        case linked(userID: Int)
        /// The provider's account has the address of an account: its password is asked first (`token`
        /// names the waiting link).
        case needsPassword(token: String, email: String)
    }

    /// Where to send the browser: the provider's sign-in, with a fresh state, nonce and proof key kept
    /// here. `linkingUserID` links the provider to that signed-in account instead of signing in.
    func start(with client: any SignInProviderClient, redirectURI: String, linkingUserID: Int? = nil) async throws -> (
        url: String, state: String
    ) {
        let state = PersonalToken.generate()
        let nonce = PersonalToken.generate()
        let proofKey = ProofKey.random()
        let url = try await client.authorizationURL(
            state: state, nonce: nonce, proofKey: proofKey, redirectURI: redirectURI)
        let now = dependencies.now()
        try await TableWriter(SignInAttemptsTable.self, on: database).insert([
            .stateDigest: PersonalToken.digest(state), .provider: client.provider.name, .verifier: proofKey.verifier,
            .nonce: nonce, .linkingUser: linkingUserID, .createdAt: now, .expiresAt: now + Self.lifetime,
        ])
        return (url, state)
    }

    /// Finishes the sign-in the provider sent back with `state` and `code`. The state is spent first,
    /// whatever happens next, so the same answer cannot be replayed.
    func finish(with client: any SignInProviderClient, state: String, code: String, redirectURI: String) async throws
        -> Outcome
    {
        let provider = client.provider
        let now = dependencies.now()
        let spent = try await TableWriter(SignInAttemptsTable.self, on: database).delete(
            where: #""state_digest" = \#(bind: PersonalToken.digest(state)) AND "provider" = \#(bind: provider.name)"#,
            returning: [.verifier, .nonce, .linkingUser, .expiresAt])
        guard let attempt = spent.first, let verifier = try attempt.text(0), let nonce = try attempt.text(1) else {
            throw SignInFailure.unknownState
        }
        guard let expiresAt = try attempt.date(3), expiresAt > now else { throw SignInFailure.expired }
        let claims = try await client.person(
            forCode: code, proofKey: ProofKey(verifier: verifier), nonce: nonce, redirectURI: redirectURI, now: now)
        let linked = try await identityOwner(provider: provider.name, subject: claims.subject)
        if let linkingUser = try attempt.integer(2) {
            if let linked {
                guard linked == linkingUser else { throw SignInFailure.linkedElsewhere(provider.label) }
                return .linked(userID: linkingUser)
            }
            try await link(userID: linkingUser, provider: provider.name, subject: claims.subject, email: claims.email)
            return .linked(userID: linkingUser)
        }
        if let linked { return .signedIn(userID: linked) }
        guard let email = claims.email else { throw SignInFailure.noEmail(provider.label) }
        if let existing = try await accounts.user(withEmail: email) {
            let token = PersonalToken.generate()
            try await TableWriter(SignInConfirmationsTable.self, on: database).insert([
                .tokenDigest: PersonalToken.digest(token), .owner: existing.id, .provider: provider.name,
                .subject: claims.subject, .email: email, .createdAt: now, .expiresAt: now + Self.lifetime,
            ])
            return .needsPassword(token: token, email: existing.profile.email)
        }
        // A new account takes the provider's address only when the provider vouches for it: otherwise anyone
        // could hold an address they do not own, and its owner could not register.
        guard claims.isEmailVerified else { throw SignInFailure.unverifiedEmail(provider.label) }
        let name = claims.name.flatMap { $0.isEmpty ? nil : $0 } ?? String(email.prefix { $0 != "@" })
        let user = try await accounts.register(
            AccountDraft(name: name, email: email), password: nil, policy: registration)
        try await link(userID: user.id, provider: provider.name, subject: claims.subject, email: email)
        return .signedIn(userID: user.id)
    }

    /// The account a waiting link names, when `token` is good.
    func confirmation(_ token: String) async throws -> (
        userID: Int, provider: String, subject: String, email: String?
    ) {
        let rows = try await database.plainRows(
            """
            SELECT "user_id", "provider", "subject", "email", "expires_at" FROM "sign_in_confirmations" \
            WHERE "token_digest" = \(bind: PersonalToken.digest(token))
            """, columns: ["user_id", "provider", "subject", "email", "expires_at"])
        guard let row = rows.first, let expiresAt = try row.date(4), expiresAt > dependencies.now() else {
            throw SignInFailure.expired
        }
        return (try row.requiredInteger(0), try row.requiredText(1), try row.requiredText(2), try row.text(3))
    }

    /// Links the waiting provider account to the account it names, once that account's password was
    /// given (`request.logIn`, throttled as the log-in page is): the wait is spent then.
    func confirm(_ token: String, signedInAs userID: Int) async throws {
        let waiting = try await confirmation(token)
        guard waiting.userID == userID else { throw AccountError.badCredentials }
        try await TableWriter(SignInConfirmationsTable.self, on: database).delete(
            where: #""token_digest" = \#(bind: PersonalToken.digest(token))"#)
        if try await identityOwner(provider: waiting.provider, subject: waiting.subject) == nil {
            try await link(
                userID: waiting.userID, provider: waiting.provider, subject: waiting.subject, email: waiting.email)
        }
    }

    /// The providers linked to an account, with the address each gave.
    func identities(of userID: Int) async throws -> [(provider: String, email: String?)] {
        try await database.plainRows(
            """
            SELECT "provider", "email" FROM "user_identities" WHERE "user_id" = \(literal: userID) ORDER BY "provider"
            """, columns: ["provider", "email"]
        ).map { (try $0.requiredText(0), try $0.text(1)) }
    }

    /// Unlinks a provider, unless it is the account's last way in (no password, no other provider).
    func unlink(_ provider: String, from userID: Int) async throws {
        let linked = try await identities(of: userID)
        guard linked.contains(where: { $0.provider == provider }) else { throw AppError.notFound }
        guard try await accounts.hasPassword(userID) || linked.count > 1 else { throw SignInFailure.lastWayIn }
        try await TableWriter(UserIdentitiesTable.self, on: database).delete(
            where: #""user_id" = \#(literal: userID) AND "provider" = \#(bind: provider)"#)
    }

    private func identityOwner(provider: String, subject: String) async throws -> Int? {
        try await database.plainRows(
            """
            SELECT "user_id" FROM "user_identities" WHERE "provider" = \(bind: provider) AND "subject" = \(bind: subject)
            """, columns: ["user_id"]
        ).first?.requiredInteger(0)
    }

    private func link(userID: Int, provider: String, subject: String, email: String?) async throws {
        // One link per provider and account: linking again replaces the old one.
        let identities = TableWriter(UserIdentitiesTable.self, on: database)
        try await identities.delete(where: #""user_id" = \#(literal: userID) AND "provider" = \#(bind: provider)"#)
        try await identities.insert([
            .owner: userID, .provider: provider, .subject: subject, .email: email, .createdAt: dependencies.now(),
        ])
    }
}

/// Why a sign-in with a provider did not end signed in.
enum SignInFailure: AppFailure, Equatable {
    case unknownProvider
    case unknownState
    case expired
    case noEmail(String)
    case unverifiedEmail(String)
    case linkedElsewhere(String)
    case lastWayIn

    var kind: FailureKind {
        switch self {
        case .unknownProvider: .notFound
        case .unknownState, .expired, .noEmail, .unverifiedEmail: .invalidInput
        case .linkedElsewhere, .lastWayIn: .conflict
        }
    }

    var messages: [String] {
        switch self {
        case .unknownProvider: ["This server offers no sign-in with that provider."]
        case .unknownState:
            ["This sign-in is not one this server started, or it was finished already. Start again."]
        case .expired: ["This sign-in took too long. Start again."]
        case .noEmail(let provider):
            ["\(provider) did not share an e-mail address, which a new account needs. Allow it, or register first."]
        case .unverifiedEmail(let provider):
            ["\(provider) has not confirmed your e-mail address; confirm it there, or register here first."]
        case .linkedElsewhere(let provider): ["This \(provider) account is linked to another Locify account."]
        case .lastWayIn: ["This is the only way into the account: set a password or link another provider first."]
        }
    }
}

/// One client per configured provider, kept so an OpenID provider's discovery and keys are read once.
final class OpenIDClients: Sendable {
    private let clients = NIOLockedValueBox<[String: any SignInProviderClient]>([:])

    func client(for provider: OpenIDProviderConfig, http: any HTTPFetching) -> any SignInProviderClient {
        clients.withLockedValue { known in
            if let client = known[provider.name], client.provider == provider { return client }
            let client: any SignInProviderClient =
                switch provider.kind {
                case .openID: OpenIDClient(provider: provider, http: http)
                case .facebook: FacebookSignInClient(provider: provider, http: http)
                }
            known[provider.name] = client
            return client
        }
    }
}

extension Application {
    private struct OpenIDClientsKey: StorageKey {
        typealias Value = OpenIDClients
    }

    var openIDClients: OpenIDClients {
        if let known = storage[OpenIDClientsKey.self] { return known }
        let made = OpenIDClients()
        storage[OpenIDClientsKey.self] = made
        return made
    }
}

extension Request {
    func openIDSignIn() -> OpenIDSignIn {
        OpenIDSignIn(
            database: db, accounts: accounts, dependencies: dependencies,
            registration: application.locifyConfig.registration)
    }

    /// The client of the configured provider `name`.
    func openIDClient(named name: String) throws -> any SignInProviderClient {
        guard let provider = application.locifyConfig.openIDProviders.first(where: { $0.name == name }) else {
            throw SignInFailure.unknownProvider
        }
        return application.openIDClients.client(for: provider, http: dependencies.http)
    }
}
