import LocifyAPI
import LocifyCore
import Vapor

/// `/api/calls` and `/api/contacts/{id}/calls`.
struct CallsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CallPaths.api, use: index)
        routes.on(.POST, CallPaths.api, limit: .longText, use: create)
        routes.get(CallPaths.apiCall, use: show)
        routes.on(.PUT, CallPaths.apiCall, limit: .longText, use: update)
        routes.delete(CallPaths.apiCall, use: delete)
        routes.get(CallPaths.apiContactCalls, use: indexOfContact)
        routes.on(.POST, CallPaths.apiContactCalls, limit: .longText, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<CallResource> {
        try await page(request, contactID: try request.contactFilter(), path: CallPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<CallResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: CallPaths.apiContactCalls(contactID))
    }

    /// Newest call first; `meta.statistics` counts the whole account's calls by year, as Monica does.
    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        CallResource
    > {
        let query = try ListQuery(from: request, defaultSort: CallService.defaultSort)
        let calls = try request.calls()
        let (found, window) = try await calls.page(contactID: contactID, sort: query.sort, page: query.page)
        var page = PageResource(
            items: try await request.callResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
        page.meta.statistics = YearlyCounts(try await calls.yearlyCounts())
        return page
    }

    func show(request: Request) async throws -> DataEnvelope<CallResource> {
        let call = try await request.calls().call(try request.pathID(.callID))
        return DataEnvelope(data: try await request.callResource(call))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.callInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/calls` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.callInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: CallInput, contactID: Int?) async throws -> Response {
        let calls = try request.calls()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: CallsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.callResource(try await calls.call($0)))
        } create: {
            let call = try await calls.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.callResource(call))
        }
    }

    /// A call stays with its contact (Monica's update ignores `contact_id` too); what is left out is kept.
    func update(request: Request) async throws -> DataEnvelope<CallResource> {
        let input = try request.callInput()
        let call = try await request.calls().update(try request.pathID(.callID), typeErrors: input.typeErrors) {
            input.merged(into: $0)
        }
        return DataEnvelope(data: try await request.callResource(call))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.callID)
        try await request.calls().delete(id)
        return DeletedResource(id: id)
    }
}
