/// The accounts of OpenID Connect providers linked to Locify accounts: the provider's name for the person
/// (`subject`) is what a sign-in is recognised by, never the e-mail address.
enum UserIdentitiesTable: StoredTable {
    static let name = "user_identities"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case provider
        case subject
        /// The address the provider gave when the link was made, to show in Settings.
        case email
        case createdAt = "created_at"
    }
}

/// Sign-ins sent to a provider and not back yet: the `state` they went with (its digest), the PKCE
/// verifier and the nonce. Each is used once: a state that comes back twice is refused.
enum SignInAttemptsTable: StoredTable {
    static let name = "sign_in_attempts"

    enum Column: String, CaseIterable, Sendable {
        case id
        case stateDigest = "state_digest"
        case provider
        case verifier
        case nonce
        /// The signed-in account linking the provider from Settings; null for a sign-in.
        case linkingUser = "linking_user_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}

/// A provider's account whose e-mail address is a Locify account's, waiting for that account's password
/// before they are linked: the address alone proves nothing.
enum SignInConfirmationsTable: StoredTable {
    static let name = "sign_in_confirmations"

    enum Column: String, CaseIterable, Sendable {
        case id
        case tokenDigest = "token_digest"
        case owner = "user_id"
        case provider
        case subject
        case email
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}
