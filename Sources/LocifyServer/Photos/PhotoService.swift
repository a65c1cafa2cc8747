import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Photos of one owner (the shape of `AddressService`): owner-scoped queries, Core values, no HTTP. The
/// bytes go to `PhotoBlobs`, once per account and digest.
struct PhotoService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// One page of the owner's photos, of one contact when `contactID` is given.
    func page(
        contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection
    ) async throws -> ([Photo], PageWindow) {
        try await database.ownedChildPage(
            table: CreatePhotos.schema, columns: PhotoRows.columns, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: PhotoRows.photo(from:))
    }

    /// Every photo of one contact, newest first, for its page.
    func photos(ofContact contactID: Int) async throws -> [Photo] {
        try await database.plainRows(
            """
            SELECT \(PhotoRows.columnList) FROM "photos" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) ORDER BY "id" DESC
            """, columns: PhotoRows.columns
        ).map(PhotoRows.photo(from:))
    }

    func photo(_ id: Int) async throws -> Photo {
        let rows = try await database.plainRows(
            """
            SELECT \(PhotoRows.columnList) FROM "photos" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PhotoRows.columns)
        guard let row = rows.first else { throw AppError.notFound }
        return try PhotoRows.photo(from: row)
    }

    /// The bytes of `photos`, by digest: one query however many photos.
    func bytes(of photos: [Photo]) async throws -> [String: [UInt8]] {
        try await PhotoBlobs(database: database, ownerID: ownerID).bytes(digests: photos.map(\.digest))
    }

    /// Stores `upload` as a photo of one of the owner's contacts. A missing contact is a problem reported
    /// with the others; another account's contact is as absent as a missing one (404).
    func create(contactID: Int?, upload: PhotoUpload, originalFilename: String?) async throws -> Photo {
        guard let contactID else {
            throw ValidationFailure(field: "contact_id", "Choose the contact this photo belongs to.")
        }
        _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        let now = dependencies.now()
        let uuid = dependencies.newUUID()
        let digest = Photo.digest(of: upload.bytes)
        let format = upload.info.format
        let name = Photo.originalFilename(originalFilename, format: format)
        let id = try await database.transaction { transaction in
            let blobID = try await PhotoBlobs(database: transaction, ownerID: ownerID)
                .store(upload.bytes, digest: digest, now: now)
            let rows = try await transaction.plainRows(
                """
                INSERT INTO "photos" ("uuid", "user_id", "contact_id", "blob_id", "original_filename", "mime_type", \
                "byte_count", "width", "height", "digest", "created_at", "updated_at") \
                VALUES (\(bind: uuid), \(bind: ownerID), \(bind: contactID), \(bind: blobID), \(bind: name), \
                \(bind: format.mimeType), \(bind: upload.bytes.count), \(bind: upload.info.width), \
                \(bind: upload.info.height), \(bind: digest), \(bind: now), \(bind: now)) RETURNING "id"
                """, columns: ["id"])
            guard let id = try rows.first?.integer(0) else { throw AppError.notFound }
            return id
        }
        return try await photo(id)
    }

    /// Deletes a photo; a contact that showed it as its avatar goes back to its Gravatar or initials.
    func delete(_ id: Int) async throws {
        let photo = try await photo(id)
        try await database.transaction { transaction in
            let sql = try transaction.sqlDatabase()
            try await sql.raw(#"DELETE FROM "photos" WHERE "id" = \#(bind: photo.id)"#).run()
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
        try await avatars().refresh(.showingPhoto(photo.id))
    }

    private func avatars() -> AvatarService {
        AvatarService(database: database, ownerID: ownerID, dependencies: dependencies)
    }
}

/// The read path of photos: plain SQL, rows read by position (see `ContactRows`).
enum PhotoRows {
    static let columns = [
        "id", "uuid", "user_id", "contact_id", "original_filename", "mime_type", "byte_count", "width", "height",
        "digest", "created_at", "updated_at",
    ]
    static let columnList = SQLQueryString.columnList(columns)

    static func photo(from row: PlainRow) throws -> Photo {
        let mimeType = try row.requiredText(5)
        guard let format = ImageFormat(mimeType: mimeType) else {
            throw PlainRow.UnreadableColumn(column: "mime_type", expected: "a known image type, not \(mimeType)")
        }
        return Photo(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), originalFilename: try row.requiredText(4), format: format,
            byteCount: try row.requiredInteger(6), width: try row.requiredInteger(7),
            height: try row.requiredInteger(8),
            digest: try row.requiredText(9), createdAt: try row.requiredDate(10), updatedAt: try row.requiredDate(11))
    }
}
