import Foundation
import LocifyCore

/// Contacts' documents (Monica's `documents`); a document goes with its contact, its bytes (in
/// `photo_blobs`, beside the photos') when nothing shows them any more (`PhotoBlobs.deleteUnused`).
enum DocumentsTable: StoredTable {
    static let name = "documents"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case blob = "blob_id"
        case originalFilename = "original_filename"
        case mimeType = "mime_type"
        case byteCount = "byte_count"
        case digest
        case downloads = "number_of_downloads"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "document", revision: .revision, uuid: .uuid)

    /// The columns `document(from:)` reads.
    static let documentColumns = selection([
        .id, .uuid, .owner, .contact, .originalFilename, .mimeType, .byteCount, .digest, .downloads, .createdAt,
        .updatedAt,
    ])

    static func document(from row: PlainRow) throws -> Document {
        Document(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), originalFilename: try row.requiredText(4),
            mimeType: try row.requiredText(5), byteCount: try row.requiredInteger(6), digest: try row.requiredText(7),
            downloads: try row.requiredInteger(8), createdAt: try row.requiredDate(9),
            updatedAt: try row.requiredDate(10))
    }
}
