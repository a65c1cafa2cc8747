import LocifyAPI
import LocifyCore
import Vapor

extension SyncedType {
    static let place = SyncedType(PlacesTable.self, writes: .place, restore: .place) { request, ids in
        try await PlaceSyncRecords.places(request, ownerID: try request.requireUser().id, ids)
    }

    static let category = SyncedType(PlaceCategoriesTable.self, writes: .category, restore: .category) { request, ids in
        try await PlaceSyncRecords.categories(request, ownerID: try request.requireUser().id, ids)
    }
}

/// The records of places, categories, comments and pictures of `ownerID` as their routes answer them: the
/// signed-in person's in their feed, a category's owner's in the feed of a category shared with them.
enum PlaceSyncRecords {
    static func places(_ request: Request, ownerID: Int, _ ids: [Int]) async throws -> [Int: SyncRecord] {
        let places = try await request.database.ownedRows(
            ids, ownedBy: ownerID, in: PlacesTable.self, selecting: PlacesTable.placeColumns,
            read: { PlaceService.Found(place: try PlacesTable.place(from: $0), distanceKilometers: nil) })
        let owners = PlaceService(database: request.database, ownerID: ownerID, dependencies: request.dependencies)
        return SyncedType.byID(try await request.placeResources(places, from: owners), id: \.id, as: SyncRecord.place)
    }

    /// Categories with their places' count, as `GET /api/categories/{id}` answers them.
    static func categories(_ request: Request, ownerID: Int, _ ids: [Int]) async throws -> [Int: SyncRecord] {
        let wanted = Set(ids)
        let owners = PlaceService(database: request.database, ownerID: ownerID, dependencies: request.dependencies)
        let categories = try await owners.categories().categories.filter { wanted.contains($0.0.id) }
        return SyncedType.byID(
            categories.map { PlaceCategoryResource($0.0, placesCount: $0.1) }, id: \.id, as: SyncRecord.category)
    }

    static func comments(_ request: Request, ownerID: Int, _ ids: [Int]) async throws -> [Int: SyncRecord] {
        let comments = try await request.database.ownedRows(
            ids, ownedBy: ownerID, in: PlaceCommentsTable.self, selecting: PlaceCommentsTable.commentColumns,
            read: PlaceCommentsTable.comment(from:))
        return SyncedType.byID(
            try await request.placeCommentResources(comments), id: \.id, as: SyncRecord.placeComment)
    }

    static func photos(_ request: Request, ownerID: Int, _ ids: [Int]) async throws -> [Int: SyncRecord] {
        let photos = try await request.database.ownedRows(
            ids, ownedBy: ownerID, in: PlacePhotosTable.self, selecting: PlacePhotosTable.photoColumns,
            read: PlacePhotosTable.photo(from:))
        return SyncedType.byID(request.placePhotoResources(photos), id: \.id, as: SyncRecord.placePhoto)
    }
}

extension SyncWrites {
    static let place = SyncWrites(
        reading: PlaceInput.self,
        fields: [
            "name", "address", "latitude", "longitude", "notes", "category_id", "is_favorite", "rating", "source",
            "external_id",
        ],
        references: [SyncReference("category_uuid", for: "category_id", in: PlaceCategoriesTable.self)],
        create: { request, input, uuid in
            try await request.places().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.places().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.places().delete(id) })

    /// A category that holds places is deleted with `move_to` (or `move_to_uuid`) naming the category that
    /// receives them, as `DELETE /api/categories/{id}?move_to=` is; without it the delete is refused.
    static let category = SyncWrites(
        reading: PlaceCategoryInput.self, fields: ["name", "move_to"],
        references: [SyncReference("move_to_uuid", for: "move_to", in: PlaceCategoriesTable.self)],
        create: { request, input, uuid in
            try await request.places().createCategory(named: input.name, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.places().renameCategory(id, to: input.name, typeErrors: input.typeErrors)
        },
        delete: { request, id, fields in
            var moveTo: Int?
            switch fields["move_to"] ?? .null {
            case .null: moveTo = nil
            case .integer(let target): moveTo = target
            default: throw ValidationFailure(field: "move_to", "move_to must be another of your categories.")
            }
            try await request.places().deleteCategory(id, moveTo: moveTo)
        })
}

extension ArchiveRestore {
    static let place = ArchiveRestore(writes: .place) { record, ids in
        try record.fields(
            ["name", "address", "latitude", "longitude", "notes", "is_favorite", "rating", "source", "external_id"],
            references: ["category_id": "category"], ids: ids)
    }

    /// A category of the same name (the account's defaults) takes the archive's places.
    static let category = ArchiveRestore(
        writes: .category,
        existing: { request, record, _ in
            guard let name = record.text("name") else { return nil }
            return try await request.places().category(named: name)?.id
        },
        fields: { record, ids in try record.fields(["name"], ids: ids) })
}

extension SyncedType {
    static let placeComment = SyncedType(PlaceCommentsTable.self, writes: .placeComment, restore: .placeComment) {
        request, ids in try await PlaceSyncRecords.comments(request, ownerID: try request.requireUser().id, ids)
    }
}

extension SyncWrites {
    /// A comment stays on the place it was written about: an update changes its text only.
    static let placeComment = SyncWrites(
        reading: PlaceCommentInput.self, fields: ["place_id", "body"],
        references: [SyncReference("place_uuid", for: "place_id", in: PlacesTable.self)],
        create: { request, input, uuid in
            try await request.placeComments().create(
                placeID: input.placeID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.placeComments().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.placeComments().delete(id) })
}

extension ArchiveRestore {
    static let placeComment = ArchiveRestore(writes: .placeComment) { record, ids in
        try record.fields(["body"], references: ["place_id": "place"], ids: ids)
    }
}

extension SyncedType {
    /// A place's pictures as `GET /api/placephotos/{id}` answers them (the file by its `link`). Clients
    /// upload them through their route, as contacts' photos.
    static let placePhoto = SyncedType(PlacePhotosTable.self, restore: .placePhoto) { request, ids in
        try await PlaceSyncRecords.photos(request, ownerID: try request.requireUser().id, ids)
    }
}

extension ArchiveRestore {
    /// A picture's bytes travel in the archive's `extra` (`content`, in base64): its resource only links to
    /// them. Each is added after its place's others, then, once all are in, moved to its position.
    static let placePhoto = ArchiveRestore(
        finish: { request, record, id, _ in
            guard case .integer(let position) = record["position"] else { return }
            _ = try await request.placePhotos().move(id, to: position)
        },
        extras: { request, ids in
            let photos = try await request.ownedRows(
                ids, in: PlacePhotosTable.self, selecting: PlacePhotosTable.photoColumns,
                read: PlacePhotosTable.photo(from:))
            let bytes = try await request.placePhotos().bytes(of: photos)
            var extras: [Int: [String: JSONValue]] = [:]
            for photo in photos {
                guard let data = bytes[photo.digest] else { continue }
                extras[photo.id] = ["content": .string(Data(data).base64EncodedString())]
            }
            return extras
        },
        create: { request, record, uuid, ids in
            guard case .string(let content) = record.extra["content"] ?? .null else {
                throw ValidationFailure(field: "content", "The picture's bytes are missing from the file.")
            }
            let upload: PhotoUpload
            do {
                upload = try PhotoUpload(base64: content)
            } catch {
                throw ValidationFailure(
                    field: "content", "The picture's bytes are not a picture this server keeps: \(error).")
            }
            guard let placeID = try ids.id(of: "place", record.referencedID("place_id")) else {
                throw ValidationFailure(field: "place_id", "The picture names no place.")
            }
            return try await request.placePhotos().create(
                placeID: placeID, upload: upload,
                originalFilename: record.text("original_filename"), uuid: uuid
            ).id
        })
}
