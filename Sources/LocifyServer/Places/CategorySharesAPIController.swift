import LocifyAPI
import LocifyCore
import Vapor

/// `/api/categories/{id}/shares` and `/link` (the owner's sharing of a category) and
/// `/api/sharedcategories` (what others share with the person, and leaving it).
struct CategorySharesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CategorySharePaths.apiShares, use: index)
        routes.post(CategorySharePaths.apiShares, use: create)
        routes.get(CategorySharePaths.apiShare, use: show)
        routes.put(CategorySharePaths.apiShare, use: update)
        routes.delete(CategorySharePaths.apiShare, use: delete)
        routes.get(CategorySharePaths.apiLink, use: showLink)
        routes.post(CategorySharePaths.apiLink, use: makeLink)
        routes.delete(CategorySharePaths.apiLink, use: revokeLink)
        routes.get(CategorySharePaths.apiSharedCategory, use: sharedCategory)
        routes.delete(CategorySharePaths.apiSharedCategory, use: leave)
    }

    /// The list of shared categories and their feeds, which the offline web app reads with its session as
    /// it reads the account's own feed (`SessionOrTokenAuthenticator`); other clients with a token.
    struct Feeds: RouteCollection {
        func boot(routes: any RoutesBuilder) throws {
            routes.get(CategorySharePaths.apiShared, use: CategorySharesAPIController().sharedWithMe)
            routes.get(CategorySharePaths.apiSharedSync, use: SharedCategorySync.pull)
        }
    }

    func index(request: Request) async throws -> DataEnvelope<[CategoryShareResource]> {
        let members = try await request.categorySharing().members(of: try request.pathID(.categoryID))
        return DataEnvelope(data: members.map { resource($0, on: request) })
    }

    /// `{"email", "can_edit"}`: sharing again with the same account changes what it may do (200).
    func create(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let before = try await sharing.members(of: categoryID)
        let input = try request.jsonInput(
            CategoryShareInput.self, empty: CategoryShareInput(draft: CategoryShareDraft(), presentKeys: []))
        let member = try await sharing.share(categoryID, input.draft, typeErrors: input.typeErrors)
        let isNew = !before.contains { $0.share.id == member.share.id }
        return try await DataEnvelope(data: resource(member, on: request)).encodeResponse(
            status: isNew ? .created : .ok, for: request)
    }

    func show(request: Request) async throws -> DataEnvelope<CategoryShareResource> {
        DataEnvelope(data: resource(try await requestedMember(request), on: request))
    }

    /// `{"can_edit"}`; left out, nothing changes.
    func update(request: Request) async throws -> DataEnvelope<CategoryShareResource> {
        let member = try await requestedMember(request)
        let input = try request.jsonInput(
            CategoryShareInput.self, empty: CategoryShareInput(draft: CategoryShareDraft(), presentKeys: []))
        guard input.typeErrors.isEmpty else { throw ValidationFailure(input.typeErrors) }
        guard let canEdit = input.draft.canEdit else { return DataEnvelope(data: resource(member, on: request)) }
        let changed = try await request.categorySharing().change(member.share.id, canEdit: canEdit)
        return DataEnvelope(data: resource(changed, on: request))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let member = try await requestedMember(request)
        try await request.categorySharing().revoke(member.share.id)
        return DeletedResource(id: member.share.id)
    }

    func showLink(request: Request) async throws -> DataEnvelope<CategoryLinkResource> {
        let categoryID = try request.pathID(.categoryID)
        guard let link = try await request.categorySharing().link(of: categoryID) else { throw AppError.notFound }
        return DataEnvelope(data: linkResource(categoryID, link, on: request))
    }

    /// Makes the public link (201), or answers the one the category has (200).
    func makeLink(request: Request) async throws -> Response {
        let categoryID = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let existed = try await sharing.link(of: categoryID) != nil
        let link = try await sharing.makeLink(of: categoryID)
        return try await DataEnvelope(data: linkResource(categoryID, link, on: request)).encodeResponse(
            status: existed ? .ok : .created, for: request)
    }

    func revokeLink(request: Request) async throws -> DeletedResource {
        let categoryID = try request.pathID(.categoryID)
        try await request.categorySharing().revokeLink(of: categoryID)
        return DeletedResource(id: categoryID)
    }

    func sharedWithMe(request: Request) async throws -> DataEnvelope<[SharedCategoryResource]> {
        DataEnvelope(data: try await request.categorySharing().sharedWithMe().map { sharedResource($0, on: request) })
    }

    func sharedCategory(request: Request) async throws -> DataEnvelope<SharedCategoryResource> {
        let shared = try await request.categorySharing().sharedCategory(try request.pathID(.categoryID))
        return DataEnvelope(data: sharedResource(shared, on: request))
    }

    func leave(request: Request) async throws -> DeletedResource {
        let categoryID = try request.pathID(.categoryID)
        try await request.categorySharing().leave(categoryID)
        return DeletedResource(id: categoryID)
    }

    /// The share the path names, of the category the path names, which must be the person's.
    private func requestedMember(_ request: Request) async throws -> CategorySharing.Member {
        let member = try await request.categorySharing().member(try request.pathID(.shareID))
        guard member.share.categoryID == (try request.pathID(.categoryID)) else { throw AppError.notFound }
        return member
    }

    private func resource(_ member: CategorySharing.Member, on request: Request) -> CategoryShareResource {
        CategoryShareResource(
            member.share, memberName: member.name, memberEmail: member.email,
            url: request.absoluteURL(CategorySharePaths.apiShare(member.share.categoryID, member.share.id)))
    }

    private func linkResource(_ categoryID: Int, _ link: (token: String, createdAt: Date), on request: Request)
        -> CategoryLinkResource
    {
        CategoryLinkResource(
            categoryID: categoryID, url: request.absoluteURL(CategorySharePaths.publicList(link.token)),
            createdAt: link.createdAt)
    }

    private func sharedResource(_ shared: CategorySharing.SharedCategory, on request: Request)
        -> SharedCategoryResource
    {
        SharedCategoryResource(
            shared.category, ownerName: shared.ownerName, canEdit: shared.role.canEditPlaces,
            placesCount: shared.placesCount,
            placesURL: request.absoluteURL(SitePaths.apiPlaces) + "?category_id=\(shared.category.id)")
    }
}
