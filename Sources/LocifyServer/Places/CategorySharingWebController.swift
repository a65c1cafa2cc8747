import LocifyCore
import Vapor

/// Sharing a category: the owner's sharing page (invite by e-mail, change or revoke each member's access,
/// make or revoke the public link) and a member's leaving. Every change counts from the next request.
struct CategorySharingWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CategorySharePaths.sharing, use: show)
        routes.post(CategorySharePaths.sharing, use: invite)
        routes.post(CategorySharePaths.share, use: change)
        routes.post(CategorySharePaths.revoke, use: revoke)
        routes.post(CategorySharePaths.link, use: makeLink)
        routes.post(CategorySharePaths.revokeLink, use: revokeLink)
        routes.post(CategorySharePaths.leave, use: leave)
    }

    func show(request: Request) async throws -> View {
        try await page(request)
    }

    struct InviteForm: Content {
        var email: String?
        var access: String?
    }

    func invite(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let form = try request.content.decode(InviteForm.self)
        return try await request.handleForm {
            let member = try await request.categorySharing().share(
                categoryID, CategoryShareDraft(email: form.email, canEdit: try Self.canEdit(form.access)))
            return .redirect(
                to: CategorySharePaths.sharing(categoryID).path,
                flash:
                    "“\(member.name)” (\(member.email)) \(member.share.canEdit ? "can now add and edit" : "can now read") its places."
            )
        } redraw: { errors in
            try await page(request, errors: errors, typedEmail: form.email, typedAccess: form.access)
        }
    }

    func change(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let shareID = try request.pathID(.shareID)
        let form = try request.content.decode(InviteForm.self)
        let back = CategorySharePaths.sharing(categoryID).path
        return try await request.handleAction(returningTo: back) {
            let sharing = try request.categorySharing()
            guard try await sharing.member(shareID).share.categoryID == categoryID else { throw AppError.notFound }
            let member = try await sharing.change(shareID, canEdit: try Self.canEdit(form.access))
            return .redirect(to: back, flash: "\(member.name) \(member.share.role.words) from now on.")
        }
    }

    func revoke(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let member = try await sharing.member(try request.pathID(.shareID))
        guard member.share.categoryID == categoryID else { throw AppError.notFound }
        try await sharing.revoke(member.share.id)
        return request.redirect(
            to: CategorySharePaths.sharing(categoryID).path, flash: "\(member.name) no longer sees this category.")
    }

    func makeLink(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        _ = try await request.categorySharing().makeLink(of: categoryID)
        return request.redirect(
            to: CategorySharePaths.sharing(categoryID).path + "#public-link",
            flash: "The public link is ready: anyone who has it sees these places.")
    }

    func revokeLink(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        try await request.categorySharing().revokeLink(of: categoryID)
        return request.redirect(
            to: CategorySharePaths.sharing(categoryID).path + "#public-link",
            flash: "The public link was revoked: its address shows nothing any more.")
    }

    func leave(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let shared = try await sharing.sharedCategory(categoryID)
        try await sharing.leave(categoryID)
        return request.redirect(
            to: SitePaths.places.path,
            flash: "You left “\(shared.category.name)”, shared by \(shared.ownerName).")
    }

    /// "edit" or "read" (the default); anything else is refused beside the choice.
    static func canEdit(_ access: String?) throws -> Bool {
        switch access ?? "read" {
        case "read", "": return false
        case "edit": return true
        default: throw ValidationFailure(field: "access", "Choose whether they may only read or also edit.")
        }
    }

    private func page(
        _ request: Request, errors: FieldMessages = [:], typedEmail: String? = nil, typedAccess: String? = nil
    ) async throws -> View {
        let categoryID = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let members = try await sharing.members(of: categoryID)
        let category = try await request.places().category(categoryID)
        let link = try await sharing.link(of: categoryID)
        return try await request.view.render(
            "places/sharing",
            CategorySharingPage.Context(
                category: category, members: members,
                publicURL: link.map { request.baseURL + CategorySharePaths.publicList($0.token).path }, errors: errors,
                typedEmail: typedEmail, typedAccess: typedAccess, session: request.pageSession))
    }
}

/// `GET /shared/{token}`: a category's public page, for anyone holding its link; an unknown or revoked
/// token finds nothing (404). The page tells search engines to leave it out and sends no referrer, so
/// the token does not travel on to the tile server or a followed link.
struct PublicPlaceListController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CategorySharePaths.publicList, use: show)
    }

    func show(request: Request) async throws -> Response {
        let category = try await CategorySharing.linkedCategory(
            token: request.pathText(.linkToken) ?? "", on: request.db)
        let places = PlaceService(database: request.db, ownerID: category.ownerID, dependencies: request.dependencies)
        let found = try await places.all(filter: PlaceFilter(categoryID: category.id))
        let covers = try await PlacePhotoService(
            database: request.db, ownerID: category.ownerID, dependencies: request.dependencies
        ).covers(ofPlaces: found.map(\.id))
        let response = try await request.view.render(
            "places/public",
            PublicPlaceListPage.Context(
                category: category, places: found,
                coverURLs: covers.mapValues { request.storedFileLink($0.storedFilename) },
                tilesEnabled: request.mapTilesEnabled, session: request.pageSession)
        ).encodeResponse(for: request)
        response.headers.replaceOrAdd(name: "X-Robots-Tag", value: "noindex, nofollow")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        return response
    }
}
