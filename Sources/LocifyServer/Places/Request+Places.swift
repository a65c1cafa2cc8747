import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    func places() throws -> PlaceService {
        PlaceService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The places that pass `filter` as a file of `format`, downloaded under a dated name.
    func placesDownload(_ format: PlaceExportFormat, filter: PlaceFilter) async throws -> Response {
        let base = baseURL
        let expires = pictureLinkExpiry
        let records = try await places().records(
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

    /// Each place with its category's name, the names read in one query.
    func placeResources(_ found: [PlaceService.Found]) async throws -> [PlaceResource] {
        let names = try await places().categoryNames(for: found)
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

    /// Each picture with its signed link.
    func placePhotoResources(_ photos: [PlacePhoto]) -> [PlacePhotoResource] {
        let base = baseURL
        let expires = pictureLinkExpiry
        return photos.map {
            PlacePhotoResource($0, link: storedFileLink($0.storedFilename, base: base, expires: expires))
        }
    }
}
