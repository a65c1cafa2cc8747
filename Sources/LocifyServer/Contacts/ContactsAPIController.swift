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
        let (aggregates, window) = try await request.contacts().aggregatePage(
            matching: query.search, order: .sorted(query.sort), page: query.page)
        let currentYear = request.today.year
        let baseURL = request.baseURL
        let expires = request.pictureLinkExpiry
        return PageResource(
            items: aggregates.map {
                request.contactResource($0, currentYear: currentYear, baseURL: baseURL, linksExpire: expires)
            },
            window: window,
            path: request.absoluteURL(.apiContacts), pageURL: query.pageURLs(of: .apiContacts, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<ContactResource> {
        let aggregate = try await request.contacts().aggregate(try request.pathID("contactID"))
        return DataEnvelope(data: request.contactResource(aggregate))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.contactInput()
        let contact = try await request.contacts().create(
            input.draft, typeErrors: input.typeErrors, birthdayReminder: input.addBirthdayReminder)
        return try await DataEnvelope(data: request.contactResource(ContactAggregate(contact: contact, addresses: [])))
            .encodeResponse(
                status: .created, for: request)
    }

    func update(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.contactInput()
        let contacts = try request.contacts()
        let contact = try await contacts.update(
            try request.pathID("contactID"), typeErrors: input.typeErrors,
            birthdayReminder: input.addBirthdayReminder
        ) { input.merged(into: $0) }
        return DataEnvelope(data: request.contactResource(try await contacts.aggregate(contact)))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID("contactID")
        try await request.contacts().delete(id)
        return DeletedResource(id: id)
    }
}

extension Request {
    /// The body as a contact input (see `jsonInput`).
    func contactInput() throws -> ContactInput {
        try jsonInput(ContactInput.self, empty: ContactInput(draft: ContactDraft(), presentKeys: []))
    }

    /// `currentYear` places a birthday with no year. A list passes the current year, the base URL and the
    /// picture links' expiry it worked out once, instead of one look-up per item.
    func contactResource(
        _ aggregate: ContactAggregate, currentYear: Int? = nil, baseURL: String? = nil, linksExpire: Int? = nil
    ) -> ContactResource {
        let base = baseURL ?? self.baseURL
        let contact = aggregate.contact
        return ContactResource(
            contact, url: base + SiteURL.apiContact(contact.id).path,
            avatar: avatarResource(contact, base: base, expires: linksExpire),
            currentYear: currentYear ?? today.year,
            addresses: aggregate.addresses.map {
                AddressShortResource($0, url: base + SiteURL.apiAddress($0.id).path)
            }, tags: aggregate.tags, counts: aggregate.counts)
    }

    func contactShortResource(_ contact: Contact, currentYear: Int? = nil) -> ContactShortResource {
        ContactShortResource(
            contact, url: absoluteURL(.apiContact(contact.id)), avatar: avatarResource(contact),
            currentYear: currentYear ?? today.year)
    }

    /// What the contact shows and where: the URL answers with the photo, the Gravatar or the initials,
    /// so it is never null.
    func avatarResource(_ contact: Contact, base: String? = nil, expires: Int? = nil) -> AvatarResource {
        AvatarResource(
            url: avatarURL(contact, base: base, expires: expires), source: contact.avatar.source.rawValue,
            defaultAvatarColor: contact.defaultAvatarColor)
    }
}
