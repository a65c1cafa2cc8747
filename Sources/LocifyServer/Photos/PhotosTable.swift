import LocifyCore

/// Contacts' photos (Monica's `photos`); a photo goes with its contact, its bytes when no photo or
/// Gravatar shows them any more (`PhotoBlobs.deleteUnused`).
enum PhotosTable: StoredTable {
    static let name = "photos"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case blob = "blob_id"
        case originalFilename = "original_filename"
        case mimeType = "mime_type"
        case byteCount = "byte_count"
        case width
        case height
        case digest
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "photo", revision: .revision, uuid: .uuid)

    /// The columns `photo(from:)` reads.
    static let photoColumns = selection([
        .id, .uuid, .owner, .contact, .originalFilename, .mimeType, .byteCount, .width, .height, .digest, .createdAt,
        .updatedAt,
    ])

    static func photo(from row: PlainRow) throws -> Photo {
        let format = try row.requiredImageFormat(5)
        return Photo(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), originalFilename: try row.requiredText(4), format: format,
            byteCount: try row.requiredInteger(6), width: try row.requiredInteger(7),
            height: try row.requiredInteger(8),
            digest: try row.requiredText(9), createdAt: try row.requiredDate(10), updatedAt: try row.requiredDate(11))
    }
}

extension PlainRow {
    /// The image format a stored picture's `mime_type` at `index` names.
    func requiredImageFormat(_ index: Int) throws -> ImageFormat {
        let mimeType = try requiredText(index)
        guard let format = ImageFormat(mimeType: mimeType) else {
            throw UnreadableColumn(column: "mime_type", expected: "a known image type, not \(mimeType)")
        }
        return format
    }
}
