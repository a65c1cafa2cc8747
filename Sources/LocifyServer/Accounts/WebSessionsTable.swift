/// Browser sessions. The cookie holds a random secret; the table holds only its digest.
enum WebSessionsTable: StoredTable {
    static let name = "web_sessions"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case secretDigest = "secret_digest"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}
