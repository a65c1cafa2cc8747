import LocifyAPI
import LocifyCore
import Vapor

/// `/api/contactfieldtypes`, `/api/contactfields` and a contact's fields (`/api/contacts/{id}/contactfields`,
/// which also takes `POST`, and the singular `/api/contact/{id}/contactfields` n8n calls).
struct ContactFieldsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let types = routes.grouped(SiteURL.apiContactFieldTypes.pathComponents)
        types.get(use: typeIndex)
        types.post(use: createType)
        types.get(":typeID", use: showType)
        types.put(":typeID", use: updateType)
        types.delete(":typeID", use: deleteType)
        let fields = routes.grouped(SiteURL.apiContactFields.pathComponents)
        fields.post(use: create)
        fields.get(":fieldID", use: show)
        fields.put(":fieldID", use: update)
        fields.delete(":fieldID", use: delete)
        routes.grouped(SiteURL.apiContacts.pathComponents).get(":contactID", "contactfields", use: indexOfContact)
        routes.grouped(SiteURL.apiContacts.pathComponents).post(":contactID", "contactfields", use: createForContact)
        routes.grouped("api", "contact").get(":contactID", "contactfields", use: indexOfContact)
    }

    func typeIndex(request: Request) async throws -> PageResource<ContactFieldTypeResource> {
        let page = try request.pageSelection()
        let types = try await request.contactFields().types()
        let start = min(page.offset, types.count)
        return PageResource(
            items: types[start..<min(start + page.limit, types.count)].map(ContactFieldTypeResource.init),
            window: page.window(total: types.count), path: request.absoluteURL(.apiContactFieldTypes),
            pageURL: pageURLs(of: .apiContactFieldTypes, request, page))
    }

    func showType(request: Request) async throws -> DataEnvelope<ContactFieldTypeResource> {
        DataEnvelope(
            data: ContactFieldTypeResource(try await request.contactFields().type(try request.pathID("typeID"))))
    }

    func createType(request: Request) async throws -> Response {
        let input = try request.jsonInput(ContactFieldTypeInput.self, empty: ContactFieldTypeInput())
        let kind = try await request.contactFields().createType(
            name: input.name ?? nil, icon: input.icon ?? nil, linkProtocol: input.linkProtocol ?? nil,
            type: input.type ?? nil, typeErrors: input.typeErrors)
        return try await DataEnvelope(data: ContactFieldTypeResource(kind)).encodeResponse(
            status: .created, for: request)
    }

    func updateType(request: Request) async throws -> DataEnvelope<ContactFieldTypeResource> {
        let input = try request.jsonInput(ContactFieldTypeInput.self, empty: ContactFieldTypeInput())
        let kind = try await request.contactFields().updateType(
            try request.pathID("typeID"), name: input.name, icon: input.icon, linkProtocol: input.linkProtocol,
            type: input.type, typeErrors: input.typeErrors)
        return DataEnvelope(data: ContactFieldTypeResource(kind))
    }

    func deleteType(request: Request) async throws -> DeletedResource {
        let id = try request.pathID("typeID")
        try await request.contactFields().deleteType(id)
        return DeletedResource(id: id)
    }

    func indexOfContact(request: Request) async throws -> PageResource<ContactFieldResource> {
        let contactID = try request.pathID("contactID")
        _ = try await request.contacts().contact(contactID)
        let page = try request.pageSelection()
        let (fields, window) = try await request.contactFields().page(ofContact: contactID, page: page)
        return PageResource(
            items: try await request.contactFieldResources(fields), window: window,
            path: request.absoluteURL(.apiContactContactFields(contactID)),
            pageURL: pageURLs(of: .apiContactContactFields(contactID), request, page))
    }

    /// Page links keeping `limit`; these lists have one order (Monica ignores `sort` on them).
    private func pageURLs(of list: SiteURL, _ request: Request, _ page: PageSelection) -> @Sendable (Int) -> String {
        request.pageURLs(
            of: list, keeping: [("limit", page.limit == PageWindow.defaultLimit ? nil : String(page.limit))])
    }

    func show(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        let field = try await request.contactFields().field(try request.pathID("fieldID"))
        return DataEnvelope(data: try await request.contactFieldResources([field])[0])
    }

    func create(request: Request) async throws -> Response {
        try await created(request, input: try request.contactFieldInput(contactID: nil))
    }

    /// `POST /api/contacts/{id}/contactfields` (Monica answers 405; clients add e-mails and phones this
    /// way): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID("contactID")
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.contactFieldInput(contactID: contactID))
    }

    private func created(_ request: Request, input: ContactFieldService.Input) async throws -> Response {
        let field = try await request.contactFields().create(input)
        return try await DataEnvelope(data: try await request.contactFieldResources([field])[0]).encodeResponse(
            status: .created, for: request)
    }

    func update(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        let field = try await request.contactFields().update(
            try request.pathID("fieldID"), try request.contactFieldInput(contactID: nil))
        return DataEnvelope(data: try await request.contactFieldResources([field])[0])
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID("fieldID")
        try await request.contactFields().delete(id)
        return DeletedResource(id: id)
    }
}
