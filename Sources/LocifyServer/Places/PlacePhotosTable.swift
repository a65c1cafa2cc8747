import LocifyCore

/// Places' pictures, in the order `position` gives (the first is the cover). A picture goes with its
/// place; its bytes sit with the contacts' photos (`photo_blobs`) and go when nothing shows them.
enum PlacePhotosTable: StoredTable {
    static let name = "place_photos"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case place = "place_id"
        case blob = "blob_id"
        case position
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

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "place_photo", revision: .revision, uuid: .uuid)

    /// The columns `photo(from:)` reads.
    static let photoColumns = selection([
        .id, .uuid, .owner, .place, .position, .originalFilename, .mimeType, .byteCount, .width, .height, .digest,
        .createdAt, .updatedAt,
    ])

    static func photo(from row: PlainRow) throws -> PlacePhoto {
        let format = try row.requiredImageFormat(6)
        return PlacePhoto(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            placeID: try row.requiredInteger(3), position: try row.requiredInteger(4),
            originalFilename: try row.requiredText(5), format: format, byteCount: try row.requiredInteger(7),
            width: try row.requiredInteger(8), height: try row.requiredInteger(9), digest: try row.requiredText(10),
            createdAt: try row.requiredDate(11), updatedAt: try row.requiredDate(12))
    }
}
