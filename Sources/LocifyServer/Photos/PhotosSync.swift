import LocifyAPI
import LocifyCore
import Vapor

extension SyncedType {
    /// Photos as `GET /api/photos/{id}` answers them, their bytes included (Monica's `dataUrl`).
    static let photo = SyncedType(PhotosTable.self, restore: .photo) { request, ids in
        let photos = try await request.ownedRows(
            ids, in: PhotosTable.self, selecting: PhotosTable.photoColumns,
            read: PhotosTable.photo(from:))
        return byID(try await request.photoResources(photos), id: \.id, as: SyncRecord.photo)
    }
}

extension ArchiveRestore {
    /// A photo comes back from the bytes its resource carries (`dataUrl`).
    static let photo = ArchiveRestore { request, record, uuid, ids in
        guard let dataURL = record.text("dataUrl"), let comma = dataURL.firstIndex(of: ",") else {
            throw ValidationFailure(field: "dataUrl", "The photo's bytes are missing from the file.")
        }
        let upload: PhotoUpload
        do {
            upload = try PhotoUpload(base64: String(dataURL[dataURL.index(after: comma)...]))
        } catch {
            throw ValidationFailure(
                field: "dataUrl", "The photo's bytes are not a picture this server keeps: \(error).")
        }
        return try await request.photos().create(
            contactID: try ids.id(of: "contact", record.referencedID("contact_id") ?? record.referencedID("contact")),
            upload: upload, originalFilename: record.text("original_filename"), uuid: uuid
        ).id
    }
}
