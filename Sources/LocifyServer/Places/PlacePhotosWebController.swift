import LocifyCore
import Vapor

/// The place page's pictures: upload one (a preview is shown before sending, where scripts run), move one
/// earlier or later (the first is the cover), delete one. Every form works without scripts and goes back
/// to the place's pictures.
struct PlacePhotosWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.upload(PlacePhotoPaths.placePhotos, limit: .photo, use: upload)
        routes.post(PlacePhotoPaths.move, use: move)
        routes.post(PlacePhotoPaths.delete, use: delete)
    }

    func upload(request: Request) async throws -> Response {
        let placeID = try request.pathID(.placeID)
        let photos = try await request.placePhotos(ofPlace: placeID, needing: .editor)
        do {
            let received = try request.photoUpload()
            _ = try await photos.create(
                placeID: placeID, upload: try received.checked(), originalFilename: received.filename)
            return request.redirect(to: PlacePhotoPaths.onPage(of: placeID), flash: "The picture was added.")
        } catch let failure as any AppFailure where failure.kind != .notFound {
            // Not an image, too large, one too many, or not a readable form: said beside the upload, with
            // its own status (413 for too large).
            let problem = FormProblem(form: .placePhoto, itemID: nil, message: failure.plainMessage, typed: [:])
            return try await request.view.render(
                "places/show", PlacePage.load(request, id: placeID, problem: problem)
            ).encodeResponse(status: failure.kind.status, for: request)
        }
    }

    struct MoveForm: Content {
        var position: Int?
    }

    func move(request: Request) async throws -> Response {
        let id = try request.pathID(.placePhotoID)
        let photos = try await request.placePhotos(showing: id, needing: .editor)
        let photo = try await photos.photo(id)
        let form = try request.content.decode(MoveForm.self)
        let back = PlacePhotoPaths.onPage(of: photo.placeID)
        return try await request.handleAction(returningTo: back) {
            guard let position = form.position, position >= 1 else {
                throw ValidationFailure(field: "position", "Choose where the picture goes.")
            }
            let moved = try await photos.move(photo.id, to: position)
            return .redirect(
                to: back,
                flash: moved.position == 1 ? "The picture is now the cover." : "The picture was moved.")
        }
    }

    func delete(request: Request) async throws -> Response {
        let id = try request.pathID(.placePhotoID)
        let photos = try await request.placePhotos(showing: id, needing: .editor)
        let photo = try await photos.photo(id)
        try await photos.delete(photo.id)
        return request.redirect(to: PlacePhotoPaths.onPage(of: photo.placeID), flash: "The picture was deleted.")
    }
}

extension PlacePhotoPaths {
    /// The pictures on the place's page.
    static func onPage(of placeID: Int) -> String { PlacePaths.place(placeID).path + "#photos" }
}
