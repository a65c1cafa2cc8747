import LocifyAPI
import LocifyCore
import Vapor

/// `/api/gifts` and `/api/contacts/{id}/gifts`.
struct GiftsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(GiftPaths.api, use: index)
        routes.on(.POST, GiftPaths.api, limit: .longText, use: create)
        routes.get(GiftPaths.apiGift, use: show)
        routes.on(.PUT, GiftPaths.apiGift, limit: .longText, use: update)
        routes.delete(GiftPaths.apiGift, use: delete)
        routes.get(GiftPaths.apiContactGifts, use: indexOfContact)
        routes.on(.POST, GiftPaths.apiContactGifts, limit: .longText, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<GiftResource> {
        try await page(request, contactID: try request.contactFilter(), path: GiftPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<GiftResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: GiftPaths.apiContactGifts(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        GiftResource
    > {
        let query = try ListQuery(from: request, defaultSort: GiftService.defaultSort)
        let (found, window) = try await request.gifts().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.giftResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<GiftResource> {
        let gift = try await request.gifts().gift(try request.pathID(.giftID))
        return DataEnvelope(data: try await request.giftResource(gift))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.giftInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/gifts` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.giftInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: GiftInput, contactID: Int?) async throws -> Response {
        let gifts = try request.gifts()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: GiftsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.giftResource(try await gifts.gift($0)))
        } create: {
            let gift = try await gifts.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.giftResource(gift))
        }
    }

    /// A gift stays with its contact; what is left out is kept (Monica requires every key again).
    func update(request: Request) async throws -> DataEnvelope<GiftResource> {
        let input = try request.giftInput()
        let gift = try await request.gifts().update(try request.pathID(.giftID), typeErrors: input.typeErrors) {
            input.merged(into: $0)
        }
        return DataEnvelope(data: try await request.giftResource(gift))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.giftID)
        try await request.gifts().delete(id)
        return DeletedResource(id: id)
    }
}
