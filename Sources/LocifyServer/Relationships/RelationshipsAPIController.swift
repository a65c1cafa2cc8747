import LocifyAPI
import LocifyCore
import Vapor

/// `/api/relationships`, `/api/contacts/{id}/relationships` and Monica's fixed relationship types.
struct RelationshipsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(RelationshipPaths.api, use: create)
        routes.get(RelationshipPaths.apiRelationship, use: show)
        routes.put(RelationshipPaths.apiRelationship, use: update)
        routes.delete(RelationshipPaths.apiRelationship, use: delete)
        routes.get(RelationshipPaths.apiContactRelationships, use: indexOfContact)
        routes.post(RelationshipPaths.apiContactRelationships, use: createForContact)
        routes.get(RelationshipPaths.apiTypes, use: types)
        routes.get(RelationshipPaths.apiType, use: type)
        routes.get(RelationshipPaths.apiGroups, use: groups)
        routes.get(RelationshipPaths.apiGroup, use: group)
    }

    /// The contact's side of each relationship, unpaginated as in Monica; another account's contact is not
    /// found.
    func indexOfContact(request: Request) async throws -> DataEnvelope<[RelationshipResource]> {
        let found = try await request.relationships().relationships(of: try request.pathID(.contactID))
        return DataEnvelope(data: try await request.relationshipResources(found))
    }

    func show(request: Request) async throws -> DataEnvelope<RelationshipResource> {
        let relationship = try await request.relationships().relationship(try request.pathID(.relationshipID))
        return DataEnvelope(data: try await request.relationshipResource(relationship))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.relationshipInput()
        return try await created(request, input: input, draft: input.draft)
    }

    /// `POST /api/contacts/{id}/relationships` (Monica answers 405; clients call it): the path names
    /// `contact_is`.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let input = try request.relationshipInput()
        var draft = input.draft
        draft.contactID = contactID
        return try await created(request, input: input, draft: draft)
    }

    private func created(_ request: Request, input: RelationshipInput, draft: RelationshipDraft) async throws
        -> Response
    {
        let relationships = try request.relationships()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: RelationshipsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.relationshipResource(try await relationships.relationship($0)))
        } create: {
            let relationship = try await relationships.create(draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.relationshipResource(relationship))
        }
    }

    /// Only the type changes (Monica's update reads nothing else); the other side takes its reverse.
    func update(request: Request) async throws -> DataEnvelope<RelationshipResource> {
        let input = try request.relationshipInput()
        // contact_is and of_contact do not change a relationship, but one sent unreadable is still refused:
        // a client sending `"of_contact": false` has a mistake worth hearing of.
        let relationship = try await request.relationships().update(
            try request.pathID(.relationshipID), typeID: input.draft.typeID, typeErrors: input.typeErrors)
        return DataEnvelope(data: try await request.relationshipResource(relationship))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.relationshipID)
        try await request.relationships().delete(id)
        return DeletedResource(id: id)
    }

    /// The 27 types, 15 to a page as Monica's list; `sort` does not apply.
    func types(request: Request) async throws -> PageResource<RelationshipTypeResource> {
        let user = try request.requireUser()
        return try fixedPage(request, of: RelationshipType.all, path: RelationshipPaths.apiTypes) {
            RelationshipTypeResource($0, ownerID: user.id, since: user.createdAt)
        }
    }

    func type(request: Request) async throws -> DataEnvelope<RelationshipTypeResource> {
        let user = try request.requireUser()
        guard let type = RelationshipType.type(try request.pathID(.relationshipTypeID)) else {
            throw AppError.notFound
        }
        return DataEnvelope(data: RelationshipTypeResource(type, ownerID: user.id, since: user.createdAt))
    }

    func groups(request: Request) async throws -> PageResource<RelationshipTypeGroupResource> {
        let user = try request.requireUser()
        return try fixedPage(request, of: RelationshipTypeGroup.allCases, path: RelationshipPaths.apiGroups) {
            RelationshipTypeGroupResource($0, ownerID: user.id, since: user.createdAt)
        }
    }

    func group(request: Request) async throws -> DataEnvelope<RelationshipTypeGroupResource> {
        let user = try request.requireUser()
        guard let group = RelationshipTypeGroup.group(try request.pathID(.relationshipTypeGroupID)) else {
            throw AppError.notFound
        }
        return DataEnvelope(data: RelationshipTypeGroupResource(group, ownerID: user.id, since: user.createdAt))
    }

    /// One page of a fixed list, in its own order.
    private func fixedPage<Item, Resource: Encodable>(
        _ request: Request, of items: [Item], path: SitePath, _ make: (Item) -> Resource
    ) throws -> PageResource<Resource> {
        let query = try ListQuery(from: request, defaultSort: ListSort(TimestampSortField.createdAt))
        let (shown, window) = query.page.slice(items)
        return PageResource(
            items: shown.map(make), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request))
    }
}
