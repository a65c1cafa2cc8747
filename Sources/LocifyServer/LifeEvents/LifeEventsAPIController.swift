import LocifyAPI
import LocifyCore
import Vapor

/// `/api/lifeEvents` and `/api/contacts/{id}/lifeEvents`.
struct LifeEventsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LifeEventPaths.api, use: index)
        routes.on(.POST, LifeEventPaths.api, limit: .longText, use: create)
        routes.get(LifeEventPaths.apiLifeEvent, use: show)
        routes.on(.PUT, LifeEventPaths.apiLifeEvent, limit: .longText, use: update)
        routes.delete(LifeEventPaths.apiLifeEvent, use: delete)
        routes.get(LifeEventPaths.apiContactLifeEvents, use: indexOfContact)
        routes.on(.POST, LifeEventPaths.apiContactLifeEvents, limit: .longText, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<LifeEventResource> {
        try await page(request, contactID: try request.contactFilter(), path: LifeEventPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<LifeEventResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: LifeEventPaths.apiContactLifeEvents(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        LifeEventResource
    > {
        let query = try ListQuery(from: request, defaultSort: LifeEventService.defaultSort)
        let (found, window) = try await request.lifeEvents().page(
            contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.lifeEventResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<LifeEventResource> {
        let lifeEvent = try await request.lifeEvents().lifeEvent(try request.pathID(.lifeEventID))
        return DataEnvelope(data: try await request.lifeEventResource(lifeEvent))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.lifeEventInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/lifeevents` (Monica has no such route; clients call it): the path names the
    /// contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.lifeEventInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: LifeEventInput, contactID: Int?) async throws -> Response {
        let lifeEvents = try request.lifeEvents()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: LifeEventsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.lifeEventResource(try await lifeEvents.lifeEvent($0)))
        } create: {
            let lifeEvent = try await lifeEvents.create(
                contactID: contactID, input.draft, yearlyReminder: input.hasReminder, typeErrors: input.typeErrors,
                uuid: uuid)
            return DataEnvelope(data: try await request.lifeEventResource(lifeEvent))
        }
    }

    /// A life event stays with its contact; what is left out is kept (Monica requires every key again).
    func update(request: Request) async throws -> DataEnvelope<LifeEventResource> {
        let input = try request.lifeEventInput()
        let lifeEvent = try await request.lifeEvents().update(
            try request.pathID(.lifeEventID), typeErrors: input.typeErrors
        ) {
            input.merged(into: $0)
        }
        return DataEnvelope(data: try await request.lifeEventResource(lifeEvent))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.lifeEventID)
        try await request.lifeEvents().delete(id)
        return DeletedResource(id: id)
    }
}
