import LocifyAPI
import LocifyCore
import Vapor

/// `/api/debts` and `/api/contacts/{id}/debts`.
struct DebtsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(DebtPaths.api, use: index)
        routes.on(.POST, DebtPaths.api, limit: .longText, use: create)
        routes.get(DebtPaths.apiDebt, use: show)
        routes.on(.PUT, DebtPaths.apiDebt, limit: .longText, use: update)
        routes.delete(DebtPaths.apiDebt, use: delete)
        routes.get(DebtPaths.apiContactDebts, use: indexOfContact)
        routes.on(.POST, DebtPaths.apiContactDebts, limit: .longText, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<DebtResource> {
        try await page(request, contactID: try request.contactFilter(), path: DebtPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<DebtResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: DebtPaths.apiContactDebts(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        DebtResource
    > {
        let query = try ListQuery(from: request, defaultSort: DebtService.defaultSort)
        let (found, window) = try await request.debts().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.debtResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<DebtResource> {
        let debt = try await request.debts().debt(try request.pathID(.debtID))
        return DataEnvelope(data: try await request.debtResource(debt))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.debtInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/debts` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.debtInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: DebtInput, contactID: Int?) async throws -> Response {
        let debts = try request.debts()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: DebtsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.debtResource(try await debts.debt($0)))
        } create: {
            let debt = try await debts.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.debtResource(debt))
        }
    }

    /// A debt stays with its contact; what is left out is kept (Monica requires every key again).
    func update(request: Request) async throws -> DataEnvelope<DebtResource> {
        let input = try request.debtInput()
        let debt = try await request.debts().update(try request.pathID(.debtID), typeErrors: input.typeErrors) {
            input.merged(into: $0)
        }
        return DataEnvelope(data: try await request.debtResource(debt))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.debtID)
        try await request.debts().delete(id)
        return DeletedResource(id: id)
    }
}
