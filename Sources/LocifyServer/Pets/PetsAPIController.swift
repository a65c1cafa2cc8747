import LocifyAPI
import LocifyCore
import Vapor

/// `/api/pets` and `/api/contacts/{id}/pets`.
struct PetsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PetPaths.api, use: index)
        routes.post(PetPaths.api, use: create)
        routes.get(PetPaths.apiPet, use: show)
        routes.put(PetPaths.apiPet, use: update)
        routes.delete(PetPaths.apiPet, use: delete)
        routes.get(PetPaths.apiContactPets, use: indexOfContact)
        routes.post(PetPaths.apiContactPets, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<PetResource> {
        try await page(request, contactID: try request.contactFilter(), path: PetPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<PetResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: PetPaths.apiContactPets(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        PetResource
    > {
        let query = try ListQuery(from: request, defaultSort: PetService.defaultSort)
        let (found, window) = try await request.pets().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.petResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<PetResource> {
        let pet = try await request.pets().pet(try request.pathID(.petID))
        return DataEnvelope(data: try await request.petResource(pet))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.petInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/pets` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.petInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: PetInput, contactID: Int?) async throws -> Response {
        let pets = try request.pets()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PetsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.petResource(try await pets.pet($0)))
        } create: {
            let pet = try await pets.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.petResource(pet))
        }
    }

    /// A `contact_id` moves the pet to another of the account's contacts, as Monica's update does; what is
    /// left out is kept.
    func update(request: Request) async throws -> DataEnvelope<PetResource> {
        let input = try request.petInput()
        let pet = try await request.pets().update(
            try request.pathID(.petID), movingTo: input.contactID, typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.petResource(pet))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.petID)
        try await request.pets().delete(id)
        return DeletedResource(id: id)
    }
}
