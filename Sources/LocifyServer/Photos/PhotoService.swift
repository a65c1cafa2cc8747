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
            table: PhotosTable.name, columns: PhotosTable.photoColumns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: PhotosTable.photo(from:))
    }

    /// Every photo of one contact, newest first, for its page.
    func photos(ofContact contactID: Int) async throws -> [Photo] {
        try await database.plainRows(
            """
            SELECT \(PhotosTable.photoColumns.list) FROM "photos" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) ORDER BY "id" DESC
            """, columns: PhotosTable.photoColumns.names
        ).map(PhotosTable.photo(from:))
    }

    func photo(_ id: Int) async throws -> Photo {
        let rows = try await database.plainRows(
            """
            SELECT \(PhotosTable.photoColumns.list) FROM "photos" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PhotosTable.photoColumns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try PhotosTable.photo(from: row)
    }

    /// The bytes of `photos`, by digest: one query however many photos.
    func bytes(of photos: [Photo]) async throws -> [String: [UInt8]] {
        try await PhotoBlobs(database: database, ownerID: ownerID).bytes(digests: photos.map(\.digest))
    }

    /// Stores `upload` as a photo of one of the owner's contacts. A missing contact is a problem reported
    /// with the others; another account's contact is as absent as a missing one (404).
    func create(contactID: Int?, upload: PhotoUpload, originalFilename: String?, uuid: UUID? = nil) async throws
        -> Photo
    {
        guard let contactID else {
            throw ValidationFailure(field: "contact_id", "Choose the contact this photo belongs to.")
        }
        try await database.requireNewRecord(uuid, in: PhotosTable.self, ownedBy: ownerID)
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let digest = Photo.digest(of: upload.bytes)
        let format = upload.info.format
        let name = Photo.originalFilename(originalFilename, format: format)
        let id = try await database.write(ownedBy: ownerID, at: now) { [ownerID] transaction in
            let blobID = try await PhotoBlobs(database: transaction, ownerID: ownerID)
                .store(upload.bytes, digest: digest, now: now)
            return try await TableWriter(PhotosTable.self, on: transaction).insert([
                .uuid: uuid, .owner: ownerID, .contact: contactID, .blob: blobID, .originalFilename: name,
                .mimeType: format.mimeType, .byteCount: upload.bytes.count, .width: upload.info.width,
                .height: upload.info.height, .digest: digest, .createdAt: now, .updatedAt: now,
            ])
        }
        return try await photo(id)
    }

    /// Deletes a photo; a contact that showed it as its avatar goes back to its Gravatar or initials.
    func delete(_ id: Int) async throws {
        let photo = try await photo(id)
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            try await TableWriter(PhotosTable.self, on: transaction).delete(photo.id, ownedBy: ownerID)
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
        try await avatars().refresh(.showingPhoto(photo.id))
    }

    private func avatars() -> AvatarService {
        AvatarService(database: database, ownerID: ownerID, dependencies: dependencies)
    }
}
