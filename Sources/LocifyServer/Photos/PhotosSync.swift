import LocifyAPI
import Vapor

extension SyncedType {
    /// Photos as `GET /api/photos/{id}` answers them, their bytes included (Monica's `dataUrl`).
    static let photo = SyncedType(PhotosTable.self) { request, ids in
        let photos = try await request.ownedRows(
            ids, in: PhotosTable.self, selecting: PhotosTable.photoColumns,
            read: PhotosTable.photo(from:))
        return byID(try await request.photoResources(photos), id: \.id, as: SyncRecord.photo)
    }
}
