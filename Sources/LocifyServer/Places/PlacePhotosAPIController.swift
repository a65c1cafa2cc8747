import LocifyAPI
import LocifyCore
import Vapor

/// `/api/places/{id}/photos` and `/api/placephotos/{id}`: a place's pictures, uploaded as contacts' photos
/// are (a multipart `photo`, or base64 `data` in JSON), reordered and deleted; and
/// `/store/place-photos/{uuid}.{ext}`, the files themselves.
struct PlacePhotosAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePhotoPaths.apiPlacePhotos, use: indexOfPlace)
        routes.upload(PlacePhotoPaths.apiPlacePhotos, limit: .photo, use: create)
        routes.get(PlacePhotoPaths.apiPhoto, use: show)
        routes.put(PlacePhotoPaths.apiPhoto, use: move)
        routes.delete(PlacePhotoPaths.apiPhoto, use: delete)
    }

    /// Every picture of the place, cover first (a place holds at most `PlacePhoto.maximumPerPlace`).
    func indexOfPlace(request: Request) async throws -> DataEnvelope<[PlacePhotoResource]> {
        let placeID = try request.pathID(.placeID)
        let photos = try await request.placePhotos(ofPlace: placeID, needing: .reader)
        return DataEnvelope(data: request.placePhotoResources(try await photos.photos(ofPlace: placeID)))
    }

    func show(request: Request) async throws -> DataEnvelope<PlacePhotoResource> {
        let id = try request.pathID(.placePhotoID)
        let photo = try await request.placePhotos(showing: id, needing: .reader).photo(id)
        return DataEnvelope(data: request.placePhotoResources([photo])[0])
    }

    /// Adds a picture after the place's others; a `contact_id` in the body is ignored.
    func create(request: Request) async throws -> Response {
        let placeID = try request.pathID(.placeID)
        let photos = try await request.placePhotos(ofPlace: placeID, needing: .editor)
        let upload = try request.photoUpload()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PlacePhotosTable.self, uuid: uuid) {
            DataEnvelope(data: request.placePhotoResources([try await photos.photo($0)])[0])
        } create: {
            let photo = try await photos.create(
                placeID: placeID, upload: try upload.checked(), originalFilename: upload.filename, uuid: uuid)
            return DataEnvelope(data: request.placePhotoResources([photo])[0])
        }
    }

    /// `{"position": n}` moves the picture among its place's; 1 makes it the cover.
    func move(request: Request) async throws -> DataEnvelope<PlacePhotoResource> {
        let id = try request.pathID(.placePhotoID)
        let photos = try await request.placePhotos(showing: id, needing: .editor)
        _ = try await photos.photo(id)
        let input = try request.jsonInput(PlacePhotoInput.self, empty: PlacePhotoInput(position: nil))
        guard input.typeErrors.isEmpty else { throw ValidationFailure(input.typeErrors) }
        guard let position = input.position, position >= 1 else {
            throw ValidationFailure(field: "position", "Position must be a whole number from 1 (the cover).")
        }
        return DataEnvelope(data: request.placePhotoResources([try await photos.move(id, to: position)])[0])
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.placePhotoID)
        try await request.placePhotos(showing: id, needing: .editor).delete(id)
        return DeletedResource(id: id)
    }
}

/// `/store/place-photos/{uuid}.{ext}`: a place's picture, to its owner or whoever holds its signed link.
struct PlacePicturesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePhotoPaths.stored, use: file)
    }

    func file(request: Request) async throws -> Response {
        try await StoredPictures.file(request, folder: PlacePhoto.folder) { uuid in
            let rows = try await request.db.plainRows(
                """
                SELECT \(PlacePhotosTable.photoColumns.list) FROM "place_photos" WHERE "uuid" = \(bind: uuid)
                """, columns: PlacePhotosTable.photoColumns.names)
            return try rows.first.map(PlacePhotosTable.photo(from:)).map {
                StoredPictures.File(storedFilename: $0.storedFilename, ownerID: $0.ownerID, digest: $0.digest)
            }
        }
    }
}
