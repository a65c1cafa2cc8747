import LocifyCore
import Vapor

/// The place page's comments: add one, and edit or delete one's own. Every form works without scripts
/// and goes back to the place; a refused one draws the page again with the problem beside it.
struct PlaceCommentsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(PlaceCommentPaths.placeComments, use: add)
        routes.post(PlaceCommentPaths.comment, use: edit)
        routes.post(PlaceCommentPaths.delete, use: delete)
    }

    struct CommentForm: Content {
        var body: String?
    }

    func add(request: Request) async throws -> Response {
        let placeID = try request.pathID(.placeID)
        let comments = try await request.placeComments(onPlace: placeID)
        let form = try request.content.decode(CommentForm.self)
        return try await handle(request, place: placeID, typed: form) {
            _ = try await comments.create(placeID: placeID, PlaceCommentDraft(body: form.body))
            return .redirect(to: PlaceCommentPaths.onPage(of: placeID), flash: "The comment was added.")
        }
    }

    func edit(request: Request) async throws -> Response {
        let id = try request.pathID(.commentID)
        let comments = try await request.placeComments(around: id)
        let comment = try await comments.comment(id)
        let form = try request.content.decode(CommentForm.self)
        return try await handle(request, place: comment.placeID, item: comment.id, typed: form) {
            _ = try await comments.update(comment.id) { _ in PlaceCommentDraft(body: form.body) }
            return .redirect(to: PlaceCommentPaths.onPage(of: comment.placeID), flash: "The comment was saved.")
        }
    }

    func delete(request: Request) async throws -> Response {
        let id = try request.pathID(.commentID)
        let comments = try await request.placeComments(around: id)
        let comment = try await comments.comment(id)
        try await comments.delete(comment.id)
        return request.redirect(to: PlaceCommentPaths.onPage(of: comment.placeID), flash: "The comment was deleted.")
    }

    private func handle(
        _ request: Request, place placeID: Int, item itemID: Int? = nil, typed form: CommentForm,
        _ submit: () async throws -> FormOutcome
    ) async throws -> Response {
        try await request.handleForm(.placeComment, item: itemID, typed: ["body": form.body], submit) { problem in
            try await request.view.render("places/show", PlacePage.load(request, id: placeID, problem: problem))
        }
    }
}

extension PlaceCommentPaths {
    /// The comments on the place's page.
    static func onPage(of placeID: Int) -> String { PlacePaths.place(placeID).path + "#comments" }
}
