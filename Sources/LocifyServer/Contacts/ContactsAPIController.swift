import LocifyAPI
import LocifyCore
import Vapor

/// `/api/contacts`: Monica's contact routes.
struct ContactsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let contacts = routes.grouped(SiteURL.apiContacts.pathComponents)
        contacts.get(use: index)
        contacts.post(use: create)
        contacts.get(":contactID", use: show)
        contacts.put(":contactID", use: update)
        contacts.delete(":contactID", use: delete)
    }

    func index(request: Request) async throws -> PageResource<ContactResource> {
        let query = try ListQuery(from: request, defaultSort: ContactOrder.defaultSort)
        let (contacts, window) = try await request.contacts().page(
            matching: query.search, order: .sorted(query.sort), page: query.page)
        let currentYear = request.today.year
        let baseURL = request.baseURL
        return PageResource(
            items: contacts.map { request.contactResource($0, currentYear: currentYear, baseURL: baseURL) },
            window: window,
            path: request.absoluteURL(.apiContacts), pageURL: query.pageURLs(of: .apiContacts, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<ContactResource> {
        let contact = try await request.contacts().contact(try request.pathID("contactID"))
        return DataEnvelope(data: request.contactResource(contact))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.contactInput()
        let contact = try await request.contacts().create(input.draft, typeErrors: input.typeErrors)
        return try await DataEnvelope(data: request.contactResource(contact)).encodeResponse(
            status: .created, for: request)
    }

    func update(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.contactInput()
        let contact = try await request.contacts().update(try request.pathID("contactID"), typeErrors: input.typeErrors)
        {
            input.merged(into: $0)
        }
        return DataEnvelope(data: request.contactResource(contact))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID("contactID")
        try await request.contacts().delete(id)
        return DeletedResource(id: id)
    }
}

extension Request {
    /// The body as a contact input; an empty body is an input with nothing in it, so the client hears
    /// which fields are missing rather than that it sent no JSON. Only JSON is read: form bodies cannot
    /// tell null from the text "null".
    func contactInput() throws -> ContactInput {
        guard let body = body.data, body.readableBytes > 0 else {
            return ContactInput(draft: ContactDraft(), presentKeys: [])
        }
        guard headers.contentType == .json else { throw AppError.malformedBody }
        return try content.decode(ContactInput.self)
    }

    /// `currentYear` places a birthday with no year; a list works it out once for all its contacts.
    /// A list passes the current year and the base URL it worked out once, instead of one look-up per item.
    func contactResource(_ contact: Contact, currentYear: Int? = nil, baseURL: String? = nil) -> ContactResource {
        ContactResource(
            contact, url: (baseURL ?? self.baseURL) + SiteURL.apiContact(contact.id).path,
            avatar: avatarResource(contact),
            currentYear: currentYear ?? today.year)
    }

    func contactShortResource(_ contact: Contact, currentYear: Int? = nil) -> ContactShortResource {
        ContactShortResource(
            contact, url: absoluteURL(.apiContact(contact.id)), avatar: avatarResource(contact),
            currentYear: currentYear ?? today.year)
    }

    /// Photos and Gravatar come with the avatar feature; until then every contact shows its initials.
    private func avatarResource(_ contact: Contact) -> AvatarResource {
        AvatarResource(url: nil, source: "default", defaultAvatarColor: contact.defaultAvatarColor)
    }
}
