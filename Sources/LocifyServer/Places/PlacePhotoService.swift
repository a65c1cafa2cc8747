import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The pictures of one owner's places (the shape of `PhotoService`): kept in order, the first the
/// place's cover. The bytes go to `PhotoBlobs`, once per account and digest, with the contacts' photos.
struct PlacePhotoService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    private static let columns = PlacePhotosTable.photoColumns

    /// A place's pictures, cover first.
    func photos(ofPlace placeID: Int) async throws -> [PlacePhoto] {
        try await photos(ofPlaces: [placeID])[placeID] ?? []
    }

    /// The pictures of each of `placeIDs`, cover first, in one query.
    func photos(ofPlaces placeIDs: [Int]) async throws -> [Int: [PlacePhoto]] {
        guard !placeIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "place_photos" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: placeIDs, idColumn: "place_id")) \
            ORDER BY "place_id", "position", "id"
            """, columns: Self.columns.names)
        return Dictionary(grouping: try rows.map(PlacePhotosTable.photo(from:)), by: \.placeID)
    }

    /// The cover of each of `placeIDs` that has a picture, in one query: for lists.
    func covers(ofPlaces placeIDs: [Int]) async throws -> [Int: PlacePhoto] {
        guard !placeIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM (SELECT \(Self.columns.list), \
            ROW_NUMBER() OVER (PARTITION BY "place_id" ORDER BY "position", "id") AS "rank" FROM "place_photos" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: placeIDs, idColumn: "place_id"))) AS "ranked" \
            WHERE "rank" = 1
            """, columns: Self.columns.names)
        return Dictionary(
            try rows.map(PlacePhotosTable.photo(from:)).map { ($0.placeID, $0) },
            uniquingKeysWith: { first, _ in first })
    }

    func photo(_ id: Int) async throws -> PlacePhoto {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: PlacePhotosTable.self, selecting: Self.columns,
            read: PlacePhotosTable.photo(from:))
    }

    /// The bytes of `photos`, by digest: one query however many pictures.
    func bytes(of photos: [PlacePhoto]) async throws -> [String: [UInt8]] {
        try await PhotoBlobs(database: database, ownerID: ownerID).bytes(digests: photos.map(\.digest))
    }

    /// Adds `upload` after a place's other pictures (its cover when it is the first). Another account's
    /// place is as absent as a missing one.
    func create(placeID: Int, upload: PhotoUpload, originalFilename: String?, uuid: UUID? = nil) async throws
        -> PlacePhoto
    {
        try await database.requireNewRecord(uuid, in: PlacePhotosTable.self, ownedBy: ownerID)
        try await database.requirePlace(placeID, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let digest = Photo.digest(of: upload.bytes)
        let format = upload.info.format
        let name = Photo.originalFilename(originalFilename, format: format)
        let id = try await database.write(ownedBy: ownerID, at: now) { [self] transaction in
            // Counted inside the write, which holds the account's revision lock: two uploads at once
            // cannot both take the last free place or the same position.
            let count = try await on(transaction).photos(ofPlace: placeID).count
            guard count < PlacePhoto.maximumPerPlace else {
                throw ValidationFailure(field: "photo", PlacePhoto.tooMany, reason: .conflict)
            }
            let blobID = try await PhotoBlobs(database: transaction, ownerID: ownerID)
                .store(upload.bytes, digest: digest, now: now)
            return try await TableWriter(PlacePhotosTable.self, on: transaction).insert([
                .uuid: uuid, .owner: ownerID, .place: placeID, .blob: blobID, .position: count + 1,
                .originalFilename: name, .mimeType: format.mimeType, .byteCount: upload.bytes.count,
                .width: upload.info.width, .height: upload.info.height, .digest: digest, .createdAt: now,
                .updatedAt: now,
            ])
        }
        return try await photo(id)
    }

    /// Moves a picture to `position` among its place's (1 makes it the cover; past the end, the last),
    /// the others closing up behind it.
    func move(_ id: Int, to position: Int) async throws -> PlacePhoto {
        let moved = try await photo(id)
        let now = dependencies.now()
        try await database.write(ownedBy: ownerID, at: now) { [self] transaction in
            var order = try await on(transaction).photos(ofPlace: moved.placeID)
            guard let index = order.firstIndex(where: { $0.id == id }) else { throw AppError.notFound }
            let picture = order.remove(at: index)
            order.insert(picture, at: PlacePhoto.position(position, among: order.count + 1) - 1)
            try await renumber(order, on: transaction, now: now)
        }
        return try await photo(id)
    }

    /// Deletes a picture; the next one becomes the cover when it was, and its bytes go when nothing else
    /// shows them.
    func delete(_ id: Int) async throws {
        let photo = try await photo(id)
        let now = dependencies.now()
        try await database.write(ownedBy: ownerID, at: now) { [self] transaction in
            try await TableWriter(PlacePhotosTable.self, on: transaction).delete(photo.id, ownedBy: ownerID)
            try await renumber(on(transaction).photos(ofPlace: photo.placeID), on: transaction, now: now)
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
    }

    /// Gives the pictures positions 1, 2, 3… in `order`, writing only those that move.
    private func renumber(_ order: [PlacePhoto], on transaction: any Database, now: Date) async throws {
        let writer = TableWriter(PlacePhotosTable.self, on: transaction)
        for (index, picture) in order.enumerated() where picture.position != index + 1 {
            try await writer.update(picture.id, ownedBy: ownerID, set: [.position: index + 1, .updatedAt: now])
        }
    }

    /// The same service inside a write's transaction.
    private func on(_ transaction: any Database) -> PlacePhotoService {
        PlacePhotoService(database: transaction, ownerID: ownerID, dependencies: dependencies)
    }
}
