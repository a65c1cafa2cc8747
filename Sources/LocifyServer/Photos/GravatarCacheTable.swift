/// Gravatar's answers per account and e-mail hash: a picture (its bytes in `photo_blobs`) or none.
enum GravatarCacheTable: StoredTable {
    static let name = "gravatar_cache"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case emailHash = "email_hash"
        /// NULL when Gravatar has no picture for the e-mail.
        case blob = "blob_id"
        case mimeType = "mime_type"
        case digest
        case fetchedAt = "fetched_at"
    }
}
