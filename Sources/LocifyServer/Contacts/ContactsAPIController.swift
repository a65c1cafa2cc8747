import LocifyAPI
import LocifyCore
import Vapor

/// `/api/contacts`: Monica's contact routes.
struct ContactsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ContactPaths.api, use: index)
        routes.post(ContactPaths.api, use: create)
        routes.get(ContactPaths.apiContact, use: show)
        routes.put(ContactPaths.apiContact, use: update)
        routes.delete(ContactPaths.apiContact, use: delete)
        routes.put(ContactPaths.apiWork, use: updateWork)
        routes.put(ContactPaths.apiFood, use: updateFoodPreferences)
        routes.put(ContactPaths.apiIntroduction, use: updateIntroduction)
    }

    /// Kept by the account's revision (`RevisionAnswers`): besides the rows, a page shows the current
    /// year (ages, birthdays without a year) and signed avatar links that expire by the day.
    func index(request: Request) async throws -> Response {
        let withExtras = request.asksForContactFields
        let links = request.application.pictureLinks.current == nil ? "unsigned" : "\(request.pictureLinkExpiry)"
        let variant = "\(withExtras) \(request.today.year) \(links)"
        return try await request.answerKeptByRevision(variant: variant) {
            let query = try ListQuery(from: request, defaultSort: ContactOrder.defaultSort)
            let (aggregates, window) = try await request.contacts().aggregatePage(
                matching: query.search, order: .sorted(query.sort), page: query.page)
            return PageResource(
                items: try await request.contactResources(aggregates, withExtras: withExtras),
                window: window,
                path: request.absoluteURL(SitePaths.apiContacts),
                pageURL: query.pageURLs(of: SitePaths.apiContacts, on: request))
        }
    }

    func show(request: Request) async throws -> DataEnvelope<ContactResource> {
        try await request.contactAnswer(try await request.contacts().aggregate(try request.pathID(.contactID)))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.contactInput()
        let contacts = try request.contacts()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ContactsTable.self, uuid: uuid) {
            try await request.contactAnswer(try await contacts.aggregate($0))
        } create: {
            let contact = try await contacts.create(
                input.draft, typeErrors: input.typeErrors, birthdayReminder: input.addBirthdayReminder, uuid: uuid)
            return try await request.contactAnswer(try await contacts.aggregate(contact.id))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.contactInput()
        let contacts = try request.contacts()
        let contact = try await contacts.update(
            try request.pathID(.contactID), typeErrors: input.typeErrors,
            birthdayReminder: input.addBirthdayReminder
        ) { input.merged(into: $0) }
        return try await request.contactAnswer(try await contacts.aggregate(contact))
    }

    /// `PUT /api/contacts/{id}/work`: where the contact works (`information.career`); a key left out
    /// keeps its value, null or blank clears it.
    func updateWork(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.jsonInput(WorkInput.self, empty: WorkInput())
        let contacts = try request.contacts()
        let contact = try await contacts.update(try request.pathID(.contactID), typeErrors: input.typeErrors) {
            input.merged(into: $0)
        }
        return try await request.contactAnswer(try await contacts.aggregate(contact))
    }

    /// `PUT /api/contacts/{id}/food`: what the contact eats or does not (`information.food_preferences`);
    /// blank, null or left out clears it, as in Monica.
    func updateFoodPreferences(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.jsonInput(FoodPreferencesInput.self, empty: FoodPreferencesInput())
        let contacts = try request.contacts()
        let contact = try await contacts.updateFoodPreferences(
            try request.pathID(.contactID), to: input.foodPreferences, typeErrors: input.typeErrors)
        return try await request.contactAnswer(try await contacts.aggregate(contact))
    }

    /// `PUT /api/contacts/{id}/introduction`: how the owner met the contact (`information.how_you_met`),
    /// replaced whole as in Monica.
    func updateIntroduction(request: Request) async throws -> DataEnvelope<ContactResource> {
        let input = try request.jsonInput(IntroductionInput.self, empty: IntroductionInput())
        let contacts = try request.contacts()
        let contact = try await contacts.updateIntroduction(
            try request.pathID(.contactID), input.draft, typeErrors: input.typeErrors, reminder: input.addReminder)
        return try await request.contactAnswer(try await contacts.aggregate(contact))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.contactID)
        try await request.contacts().delete(id)
        return DeletedResource(id: id)
    }
}

extension Request {
    /// Whether the client asked for `with=contactfields` (that exact value), in the query or as a key of
    /// the JSON body: the contacts answered then carry their fields and newest notes.
    var asksForContactFields: Bool {
        if queryParameters["with"] == "contactfields" { return true }
        guard headers.contentType == .json, let body = body.data, body.readableBytes > 0 else { return false }
        return (try? content.get(String.self, at: "with")) == "contactfields"
    }

    /// One contact as the route answers it, with fields and notes when asked (`asksForContactFields`).
    func contactAnswer(_ aggregate: ContactAggregate) async throws -> DataEnvelope<ContactResource> {
        DataEnvelope(data: try await contactResources([aggregate], withExtras: asksForContactFields)[0])
    }

    /// The contacts as resources; `withExtras` adds each one's fields and three newest notes, read for
    /// all of them in two queries.
    func contactResources(_ aggregates: [ContactAggregate], withExtras: Bool) async throws -> [ContactResource] {
        let currentYear = today.year
        let base = baseURL
        let expires = pictureLinkExpiry
        var extras: [Int: ContactResource.Extras] = [:]
        if withExtras {
            let ids = aggregates.map(\.contact.id)
            let contactFields = try contactFields()
            let kinds = Dictionary(uniqueKeysWithValues: try await contactFields.types().map { ($0.id, $0) })
            let fields = Dictionary(grouping: try await contactFields.fields(ofContacts: ids), by: \.contactID)
            let notes = try await self.notes().newest(ofContacts: ids, limit: ContactResource.notesShown)
            for aggregate in aggregates {
                let contact = aggregate.contact
                let short = contactShortResource(contact, currentYear: currentYear)
                extras[contact.id] = ContactResource.Extras(
                    contactFields: (fields[contact.id] ?? []).compactMap { field in
                        kinds[field.typeID].map { ContactFieldResource(field, type: $0, contact: short) }
                    },
                    notes: (notes[contact.id] ?? []).map {
                        NoteResource($0, url: base + NotePaths.apiNote($0.id).path, contact: short)
                    })
            }
        }
        return aggregates.map {
            contactResource(
                $0, currentYear: currentYear, baseURL: base, linksExpire: expires, extras: extras[$0.contact.id])
        }
    }

    /// The body as a contact input (see `jsonInput`).
    func contactInput() throws -> ContactInput {
        try jsonInput(ContactInput.self, empty: ContactInput(draft: ContactDraft(), presentKeys: []))
    }

    /// `currentYear` places a birthday with no year. A list passes the current year, the base URL and the
    /// picture links' expiry it worked out once, instead of one look-up per item.
    func contactResource(
        _ aggregate: ContactAggregate, currentYear: Int? = nil, baseURL: String? = nil, linksExpire: Int? = nil,
        extras: ContactResource.Extras? = nil
    ) -> ContactResource {
        let base = baseURL ?? self.baseURL
        let contact = aggregate.contact
        return ContactResource(
            contact, url: base + ContactPaths.apiContact(contact.id).path,
            avatar: avatarResource(contact, base: base, expires: linksExpire),
            currentYear: currentYear ?? today.year,
            addresses: aggregate.addresses.map {
                AddressShortResource($0, url: base + AddressPaths.apiAddress($0.id).path)
            }, tags: aggregate.tags, counts: aggregate.counts,
            relationships: ContactResource.Relationships(
                aggregate.relationships.map {
                    ($0.relationship, contactShortResource($0.ofContact, currentYear: currentYear, baseURL: base))
                }),
            metThrough: aggregate.metThrough.map {
                contactShortResource($0, currentYear: currentYear, baseURL: base)
            }, extras: extras)
    }

    func contactShortResource(_ contact: Contact, currentYear: Int? = nil, baseURL: String? = nil)
        -> ContactShortResource
    {
        let base = baseURL ?? self.baseURL
        return ContactShortResource(
            contact, url: base + ContactPaths.apiContact(contact.id).path, avatar: avatarResource(contact, base: base),
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
