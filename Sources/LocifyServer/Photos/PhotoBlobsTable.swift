/// The bytes of photos and Gravatars, once per account and SHA-256 however many photos show them. In the
/// database, so several servers on one PostgreSQL serve the same pictures.
enum PhotoBlobsTable: StoredTable {
    static let name = "photo_blobs"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case digest
        case bytes
        case byteCount = "byte_count"
        case createdAt = "created_at"
    }
}
