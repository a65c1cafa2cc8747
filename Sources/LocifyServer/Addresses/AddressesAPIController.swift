import LocifyAPI
import LocifyCore
import Vapor

/// `/api/addresses`, `/api/contacts/{id}/addresses`, `/api/countries` and the vCard downloads: Monica's
/// address routes with Locify's additions.
struct AddressesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AddressPaths.api, use: index)
        routes.post(AddressPaths.api, use: create)
        routes.get(AddressPaths.apiAddress, use: show)
        routes.put(AddressPaths.apiAddress, use: update)
        routes.delete(AddressPaths.apiAddress, use: delete)
        routes.get(AddressPaths.apiContactAddresses, use: indexOfContact)
        routes.post(AddressPaths.apiContactAddresses, use: createForContact)
        routes.get(ContactPaths.apiVCard, use: VCardDownloads.contact)
        routes.get(AddressPaths.apiVCard, use: VCardDownloads.address)
        routes.get(AddressPaths.apiCountries, use: countries)
    }

    func index(request: Request) async throws -> PageResource<AddressResource> {
        try await page(request, contactID: try request.contactFilter(), path: SitePaths.apiAddresses)
    }

    func indexOfContact(request: Request) async throws -> PageResource<AddressResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: AddressPaths.apiContactAddresses(contactID))
    }

    private func page(
        _ request: Request, contactID: Int?, path: some SiteAddress
    ) async throws -> PageResource<AddressResource> {
        let query = try ListQuery(from: request, defaultSort: AddressService.defaultSort)
        let (addresses, window) = try await request.addresses().page(
            contactID: contactID, sort: query.sort, page: query.page)
        let resources = try await request.addressResources(addresses)
        return PageResource(
            items: resources, window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<AddressResource> {
        let address = try await request.addresses().address(try request.pathID(.addressID))
        return DataEnvelope(data: try await request.addressResource(address))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.addressInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// Clients try `POST /api/contacts/{id}/addresses` (Monica answers 405): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.addressInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: AddressInput, contactID: Int?) async throws -> Response {
        let addresses = try request.addresses()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: AddressesTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.addressResource(try await addresses.address($0)))
        } create: {
            let address = try await addresses.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors,
                coordinatesSent: input.setsCoordinates, uuid: uuid)
            return DataEnvelope(data: try await request.addressResource(address))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<AddressResource> {
        let input = try request.addressInput()
        let address = try await request.addresses().update(
            try request.pathID(.addressID), contactID: input.contactID, typeErrors: input.typeErrors,
            coordinatesSent: input.setsCoordinates, keptFields: input.keptFields
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.addressResource(address))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.addressID)
        try await request.addresses().delete(id)
        return DeletedResource(id: id)
    }

    func countries(request: Request) async throws -> DataEnvelope<CountryListResource> {
        DataEnvelope(data: CountryListResource(.bundled))
    }
}
