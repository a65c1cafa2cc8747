import LocifyCore

/// Personal API tokens, stored only as the SHA-256 digest of the secret shown once on creation.
enum APITokensTable: StoredTable {
    static let name = "api_tokens"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case label
        case secretDigest = "secret_digest"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        /// Tokens made in Settings or by the CLI never expire; OAuth log-ins do.
        case expiresAt = "expires_at"
    }

    /// The columns `summary(from:)` reads.
    static let summaryColumns = selection([.id, .label, .createdAt, .lastUsedAt, .expiresAt])

    static func summary(from row: PlainRow) throws -> PersonalTokenSummary {
        PersonalTokenSummary(
            id: try row.requiredInteger(0), label: try row.requiredText(1), createdAt: try row.requiredDate(2),
            lastUsedAt: try row.date(3), expiresAt: try row.date(4))
    }
}
