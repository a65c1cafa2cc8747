import LocifyAPI
import LocifyCore
import Vapor

/// `/api/placecomments` and `/api/places/{id}/comments`, in the shape of the notes routes.
struct PlaceCommentsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlaceCommentPaths.api, use: index)
        routes.on(.POST, PlaceCommentPaths.api, limit: .longText, use: create)
        routes.get(PlaceCommentPaths.apiComment, use: show)
        routes.on(.PUT, PlaceCommentPaths.apiComment, limit: .longText, use: update)
        routes.delete(PlaceCommentPaths.apiComment, use: delete)
        routes.get(PlaceCommentPaths.apiPlaceComments, use: indexOfPlace)
        routes.on(.POST, PlaceCommentPaths.apiPlaceComments, limit: .longText, use: createForPlace)
    }

    func index(request: Request) async throws -> PageResource<PlaceCommentResource> {
        try await page(request, placeID: nil, path: PlaceCommentPaths.api)
    }

    func indexOfPlace(request: Request) async throws -> PageResource<PlaceCommentResource> {
        let placeID = try request.pathID(.placeID)
        return try await page(request, placeID: placeID, path: PlaceCommentPaths.apiPlaceComments(placeID))
    }

    /// The comments on the person's places (every one when `placeID` is nil), or on one shared with them.
    private func page(_ request: Request, placeID: Int?, path: some SiteAddress) async throws -> PageResource<
        PlaceCommentResource
    > {
        let query = try ListQuery(from: request, defaultSort: PlaceCommentService.defaultSort)
        let (comments, window) = try await request.placeComments(onPlace: placeID).page(
            placeID: placeID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.placeCommentResources(comments), window: window,
            path: request.absoluteURL(path), pageURL: query.pageURLs(of: path, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<PlaceCommentResource> {
        let id = try request.pathID(.commentID)
        let comment = try await request.placeComments(around: id).comment(id)
        return DataEnvelope(data: try await request.placeCommentResource(comment))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.placeCommentInput()
        return try await created(request, input: input, placeID: input.placeID)
    }

    /// The path names the place.
    func createForPlace(request: Request) async throws -> Response {
        let placeID = try request.pathID(.placeID)
        _ = try await request.placeAccess(placeID)
        return try await created(request, input: try request.placeCommentInput(), placeID: placeID)
    }

    private func created(_ request: Request, input: PlaceCommentInput, placeID: Int?) async throws -> Response {
        // A place out of the person's reach is refused as a missing one, by their own comments.
        let comments =
            if let placeID, let reached = try? await request.placeComments(onPlace: placeID) {
                reached
            } else {
                try request.placeComments()
            }
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PlaceCommentsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.placeCommentResource(try await comments.comment($0)))
        } create: {
            let comment = try await comments.create(
                placeID: placeID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.placeCommentResource(comment))
        }
    }

    /// `body` left out keeps the text; a comment stays on its place.
    func update(request: Request) async throws -> DataEnvelope<PlaceCommentResource> {
        let id = try request.pathID(.commentID)
        let comments = try await request.placeComments(around: id)
        let input = try request.placeCommentInput()
        let comment = try await comments.update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.placeCommentResource(comment))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.commentID)
        try await request.placeComments(around: id).delete(id)
        return DeletedResource(id: id)
    }
}
