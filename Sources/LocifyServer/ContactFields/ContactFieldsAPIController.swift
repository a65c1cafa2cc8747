import LocifyAPI
import LocifyCore
import Vapor

/// `/api/contactfieldtypes`, `/api/contactfields` and a contact's fields (`/api/contacts/{id}/contactfields`,
/// which also takes `POST`, and the singular `/api/contact/{id}/contactfields` n8n calls).
struct ContactFieldsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ContactFieldPaths.apiTypes, use: typeIndex)
        routes.post(ContactFieldPaths.apiTypes, use: createType)
        routes.get(ContactFieldPaths.apiType, use: showType)
        routes.put(ContactFieldPaths.apiType, use: updateType)
        routes.delete(ContactFieldPaths.apiType, use: deleteType)
        routes.post(ContactFieldPaths.api, use: create)
        routes.get(ContactFieldPaths.apiField, use: show)
        routes.put(ContactFieldPaths.apiField, use: update)
        routes.delete(ContactFieldPaths.apiField, use: delete)
        routes.get(ContactFieldPaths.apiContactFields, use: indexOfContact)
        routes.post(ContactFieldPaths.apiContactFields, use: createForContact)
        routes.get(ContactFieldPaths.apiContactField, use: showOfContact)
        routes.put(ContactFieldPaths.apiContactField, use: updateOfContact)
        routes.delete(ContactFieldPaths.apiContactField, use: deleteOfContact)
        routes.get(ContactFieldPaths.apiContactFieldsSingular, use: indexOfContact)
    }

    func typeIndex(request: Request) async throws -> PageResource<ContactFieldTypeResource> {
        let page = try request.pageSelection()
        let (types, window) = page.slice(try await request.contactFields().types())
        return PageResource(
            items: types.map(ContactFieldTypeResource.init), window: window,
            path: request.absoluteURL(ContactFieldPaths.apiTypes),
            pageURL: pageURLs(of: ContactFieldPaths.apiTypes, request, page))
    }

    func showType(request: Request) async throws -> DataEnvelope<ContactFieldTypeResource> {
        DataEnvelope(
            data: ContactFieldTypeResource(try await request.contactFields().type(try request.pathID(.fieldTypeID))))
    }

    func createType(request: Request) async throws -> Response {
        let input = try request.jsonInput(ContactFieldTypeInput.self, empty: ContactFieldTypeInput())
        let fields = try request.contactFields()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ContactFieldTypesTable.self, uuid: uuid) {
            DataEnvelope(data: ContactFieldTypeResource(try await fields.type($0)))
        } create: {
            let kind = try await fields.createType(
                name: input.name ?? nil, icon: input.icon ?? nil, linkProtocol: input.linkProtocol ?? nil,
                type: input.type ?? nil, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: ContactFieldTypeResource(kind))
        }
    }

    func updateType(request: Request) async throws -> DataEnvelope<ContactFieldTypeResource> {
        let input = try request.jsonInput(ContactFieldTypeInput.self, empty: ContactFieldTypeInput())
        let kind = try await request.contactFields().updateType(
            try request.pathID(.fieldTypeID), name: input.name, icon: input.icon, linkProtocol: input.linkProtocol,
            type: input.type, typeErrors: input.typeErrors)
        return DataEnvelope(data: ContactFieldTypeResource(kind))
    }

    func deleteType(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.fieldTypeID)
        try await request.contactFields().deleteType(id)
        return DeletedResource(id: id)
    }

    func indexOfContact(request: Request) async throws -> PageResource<ContactFieldResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let page = try request.pageSelection()
        let (fields, window) = try await request.contactFields().page(ofContact: contactID, page: page)
        return PageResource(
            items: try await request.contactFieldResources(fields), window: window,
            path: request.absoluteURL(ContactFieldPaths.apiContactFields(contactID)),
            pageURL: pageURLs(of: ContactFieldPaths.apiContactFields(contactID), request, page))
    }

    /// Page links keeping `limit`; these lists have one order (Monica ignores `sort` on them).
    private func pageURLs(of list: some SiteAddress, _ request: Request, _ page: PageSelection)
        -> @Sendable (Int) -> String
    {
        request.pageURLs(
            of: list, keeping: [("limit", page.limit == PageWindow.defaultLimit ? nil : String(page.limit))])
    }

    func show(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        let field = try await request.contactFields().field(try request.pathID(.fieldID))
        return DataEnvelope(data: try await request.contactFieldResources([field])[0])
    }

    func create(request: Request) async throws -> Response {
        try await created(request, input: try request.contactFieldInput(contactID: nil))
    }

    /// `POST /api/contacts/{id}/contactfields` (Monica answers 405; clients add e-mails and phones this
    /// way): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.contactFieldInput(contactID: contactID))
    }

    private func created(_ request: Request, input: ContactFieldService.Input) async throws -> Response {
        let fields = try request.contactFields()
        var input = input
        input.uuid = try request.clientUUID()
        return try await request.answerCreate(of: ContactFieldsTable.self, uuid: input.uuid) {
            DataEnvelope(data: try await request.contactFieldResources([try await fields.field($0)])[0])
        } create: { [input] in
            DataEnvelope(data: try await request.contactFieldResources([try await fields.create(input)])[0])
        }
    }

    func update(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        let field = try await request.contactFields().update(
            try request.pathID(.fieldID), try request.contactFieldInput(contactID: nil))
        return DataEnvelope(data: try await request.contactFieldResources([field])[0])
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.fieldID)
        try await request.contactFields().delete(id)
        return DeletedResource(id: id)
    }

    /// The field the nested path names, when it is that contact's; any other is not found.
    private func fieldOfContact(_ request: Request) async throws -> ContactField {
        let field = try await request.contactFields().field(try request.pathID(.fieldID))
        guard field.contactID == (try request.pathID(.contactID)) else { throw AppError.notFound }
        return field
    }

    func showOfContact(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        DataEnvelope(data: try await request.contactFieldResources([try await fieldOfContact(request)])[0])
    }

    /// `PUT /api/contacts/{id}/contactfields/{field}` (Monica lacks it; its iOS app calls it): the field
    /// stays with the contact in the path, whatever the body's `contact_id` says.
    func updateOfContact(request: Request) async throws -> DataEnvelope<ContactFieldResource> {
        let stored = try await fieldOfContact(request)
        let field = try await request.contactFields().update(
            stored.id, try request.contactFieldInput(contactID: stored.contactID))
        return DataEnvelope(data: try await request.contactFieldResources([field])[0])
    }

    func deleteOfContact(request: Request) async throws -> DeletedResource {
        let stored = try await fieldOfContact(request)
        try await request.contactFields().delete(stored.id)
        return DeletedResource(id: stored.id)
    }
}
