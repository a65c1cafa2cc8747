import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    func places() throws -> PlaceService {
        PlaceService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The places of the account that owns what `access` reaches: the person's own, or those a category
    /// shared with them holds.
    func places(of access: PlaceAccess) -> PlaceService {
        PlaceService(database: database, ownerID: access.ownerID, dependencies: dependencies)
    }

    /// The places a list of `categoryID` reads: a category shared with the person lists its owner's
    /// places; any other (or none), the person's own, which hold none of another's category.
    func places(listing categoryID: Int?) async throws -> PlaceService {
        guard let access = await reachableCategory(categoryID) else { return try places() }
        return places(of: access)
    }

    /// The person's access to `categoryID` when it is theirs or shared with them; nil for none or another's.
    private func reachableCategory(_ categoryID: Int?) async -> PlaceAccess? {
        guard let categoryID else { return nil }
        return try? await categorySharing().access(toCategory: categoryID)
    }

    func categorySharing() throws -> CategorySharing {
        CategorySharing(database: database, userID: try requireUser().id, dependencies: dependencies)
    }

    /// What the signed-in person may do with the place `id` (404 when it is neither theirs nor shared with
    /// them), and its owner's places to do it with.
    func placeAccess(_ id: Int, needing role: PlaceRole = .reader) async throws -> (PlaceAccess, PlaceService) {
        let access = try await categorySharing().access(toPlace: id)
        try access.require(role)
        return (access, places(of: access))
    }

    /// Where a place the signed-in person adds to `categoryID` goes: their own category, or one shared
    /// with them able to edit. A category out of reach is left to the person's own places, which refuse it
    /// as they refuse any unknown category.
    func placesReceiving(categoryID: Int?) async throws -> PlaceService {
        try await reachableCategory(categoryID)?.require(.editor)
        return try await places(listing: categoryID)
    }

    /// A member moves a shared place only to another category of the same owner they may edit: the
    /// owner's other categories are out of their sight.
    func requireMove(of access: PlaceAccess, to categoryID: Int?) async throws {
        guard !access.isOwner, let categoryID, categoryID != access.categoryID else { return }
        guard let target = await reachableCategory(categoryID), target.ownerID == access.ownerID,
            target.role.canEditPlaces
        else {
            throw ValidationFailure(
                field: "category_id", "A shared place moves only to another of its owner's categories you may edit.",
                reason: .unknownReference)
        }
    }

    /// The places that pass `filter` as a file of `format`, downloaded under a dated name.
    func placesDownload(_ format: PlaceExportFormat, filter: PlaceFilter) async throws -> Response {
        let base = baseURL
        let expires = pictureLinkExpiry
        let records = try await places(listing: filter.categoryID).records(
            filter: filter, photoLink: { self.storedFileLink($0.storedFilename, base: base, expires: expires) },
            includingBytes: format.holdsPictures)
        let file = try await application.cpuWork.offloaded { try format.file(records) }
        let response = Response(status: .ok, body: .init(data: file))
        response.headers.replaceOrAdd(name: .contentType, value: format.mediaType)
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: "attachment; filename=\"\(format.fileName(on: today))\"")
        return response
    }

    func placeImporter() throws -> PlaceImporter {
        PlaceImporter(places: try places(), config: application.locifyConfig, cpuWork: application.cpuWork)
    }

    /// An uploaded places file read on the thread pool: its bytes, format and records, or the
    /// ValidationFailure of a file that holds no places.
    func readPlacesFile(_ file: File) async throws -> (data: Data, format: PlaceImportFormat, read: PlaceImport) {
        let data = Data(file.data.readableBytesView)
        let listName = PlaceImportStore.listName(of: file.filename)
        let (format, read) = try await application.cpuWork.offloaded {
            try PlaceImporter.read(data, listName: listName)
        }
        return (data, format, read)
    }

    /// Hands a stored import to the background workers, waking one.
    func queuePlaceImport(_ id: Int) async throws {
        try await PlaceImportJob.enqueue(
            importID: id, ownerID: try requireUser().id, now: dependencies.now(), on: database)
        application.jobWorkers?.nudge()
    }

    func placeImports() throws -> PlaceImportStore {
        PlaceImportStore(
            database: database, ownerID: try requireUser().id, now: dependencies.now, cpuWork: application.cpuWork)
    }

    /// One place as the API answers it.
    func placeEnvelope(_ place: Place, from places: PlaceService) async throws -> DataEnvelope<PlaceResource> {
        DataEnvelope(data: try await placeResources([.init(place: place, distanceKilometers: nil)], from: places)[0])
    }

    /// Each place with its category's name, the names read in one query from the places' owner's.
    func placeResources(_ found: [PlaceService.Found], from places: PlaceService? = nil) async throws
        -> [PlaceResource]
    {
        let names = try await (places ?? self.places()).categoryNames(for: found)
        let base = baseURL
        return found.map {
            PlaceResource(
                $0.place, categoryName: names[$0.place.categoryID] ?? "",
                url: base + PlacePaths.apiPlace($0.place.id).path,
                distanceKm: $0.distanceKilometers)
        }
    }
}

extension Request {
    /// The comments on the signed-in user's places, written by them.
    func placeComments() throws -> PlaceCommentService {
        let user = try requireUser()
        return PlaceCommentService(
            database: database, ownerID: user.id, authorID: user.id, dependencies: dependencies)
    }

    /// The body as a comment input (see `jsonInput`).
    func placeCommentInput() throws -> PlaceCommentInput {
        try jsonInput(PlaceCommentInput.self, empty: PlaceCommentInput(draft: PlaceCommentDraft(), presentKeys: []))
    }

    func placeCommentResource(_ comment: PlaceComment) async throws -> PlaceCommentResource {
        try await placeCommentResources([comment])[0]
    }

    /// The comments on a place the signed-in person owns or that is shared with them, written by them.
    func placeComments(of access: PlaceAccess) throws -> PlaceCommentService {
        PlaceCommentService(
            database: database, ownerID: access.ownerID, authorID: try requireUser().id, dependencies: dependencies)
    }

    /// The comments on the place the comment `commentID` is about, written by the signed-in person, who
    /// owns the place or sees it shared (404 otherwise).
    func placeComments(around commentID: Int) async throws -> PlaceCommentService {
        try placeComments(of: try await categorySharing().access(toComment: commentID))
    }

    /// The comments on the place `placeID`, which the signed-in person owns or sees shared (404
    /// otherwise); the person's own comments' service when no place is named, which reports that.
    func placeComments(onPlace placeID: Int?) async throws -> PlaceCommentService {
        guard let placeID else { return try placeComments() }
        return try placeComments(of: try await placeAccess(placeID).0)
    }

    /// Each comment with its author's name, the names read in one query.
    func placeCommentResources(_ comments: [PlaceComment]) async throws -> [PlaceCommentResource] {
        let names = try await placeComments().authorNames(of: comments)
        let base = baseURL
        return comments.map {
            PlaceCommentResource(
                $0, url: base + PlaceCommentPaths.apiComment($0.id).path, authorName: names[$0.authorID] ?? "")
        }
    }
}

extension Request {
    /// The pictures of the signed-in user's places.
    func placePhotos() throws -> PlacePhotoService {
        PlacePhotoService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The pictures of a place the signed-in person owns or that is shared with them.
    func placePhotos(of access: PlaceAccess) -> PlacePhotoService {
        PlacePhotoService(database: database, ownerID: access.ownerID, dependencies: dependencies)
    }

    /// The pictures of the place `placeID` when the signed-in person may do `role`'s part with them.
    func placePhotos(ofPlace placeID: Int, needing role: PlaceRole) async throws -> PlacePhotoService {
        placePhotos(of: try await placeAccess(placeID, needing: role).0)
    }

    /// The pictures of the place the picture `photoID` shows, when the signed-in person may do `role`'s
    /// part with them (404 when it is neither theirs nor shared with them).
    func placePhotos(showing photoID: Int, needing role: PlaceRole) async throws -> PlacePhotoService {
        let access = try await categorySharing().access(toPhoto: photoID)
        try access.require(role)
        return placePhotos(of: access)
    }

    /// Each picture with its signed link.
    func placePhotoResources(_ photos: [PlacePhoto]) -> [PlacePhotoResource] {
        let base = baseURL
        let expires = pictureLinkExpiry
        return photos.map {
            PlacePhotoResource($0, link: storedFileLink($0.storedFilename, base: base, expires: expires))
        }
    }
}
