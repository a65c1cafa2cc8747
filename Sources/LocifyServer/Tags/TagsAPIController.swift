import LocifyAPI
import LocifyCore
import Vapor

/// `/api/tags`, a tag's contacts, and putting tags on and off a contact.
struct TagsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TagPaths.api, use: index)
        routes.post(TagPaths.api, use: create)
        routes.get(TagPaths.apiTag, use: show)
        routes.put(TagPaths.apiTag, use: update)
        routes.delete(TagPaths.apiTag, use: delete)
        routes.get(TagPaths.apiTagContacts, use: contacts)
        routes.post(TagPaths.apiSetTags, use: setTags)
        routes.post(TagPaths.apiUnsetTag, use: unsetTag)
        routes.post(TagPaths.apiUnsetTags, use: unsetTags)
    }

    func index(request: Request) async throws -> PageResource<TagResource> {
        let query = try ListQuery(from: request, defaultSort: TagService.defaultSort)
        let (tags, window) = try await request.tags().page(sort: query.sort, page: query.page)
        return PageResource(
            items: tags.map(TagResource.init), window: window, path: request.absoluteURL(TagPaths.api),
            pageURL: query.pageURLs(of: TagPaths.api, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<TagResource> {
        DataEnvelope(data: TagResource(try await request.tags().tag(try request.pathID(.tagID))))
    }

    /// A name the account already has (ignoring case and accents) answers that tag, so clients that
    /// create before tagging do not make twins.
    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(TagInput.self, empty: TagInput(name: nil))
        let tags = try request.tags()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: TagsTable.self, uuid: uuid) {
            DataEnvelope(data: TagResource(try await tags.tag($0)))
        } create: {
            DataEnvelope(
                data: TagResource(
                    try await tags.create(named: input.name, typeErrors: input.typeErrors, uuid: uuid).tag))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<TagResource> {
        let input = try request.jsonInput(TagInput.self, empty: TagInput(name: nil))
        let tag = try await request.tags().rename(
            try request.pathID(.tagID), to: input.name, typeErrors: input.typeErrors)
        return DataEnvelope(data: TagResource(tag))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.tagID)
        try await request.tags().delete(id)
        return DeletedResource(id: id)
    }

    /// The contacts carrying the tag, as the contact list pages them, each with its fields and newest
    /// notes (Monica always adds them here).
    func contacts(request: Request) async throws -> PageResource<ContactResource> {
        let tagID = try request.pathID(.tagID)
        _ = try await request.tags().tag(tagID)
        let query = try ListQuery(from: request, defaultSort: ContactOrder.defaultSort)
        let (aggregates, window) = try await request.contacts().aggregatePage(
            matching: query.search, taggedWith: tagID, order: .sorted(query.sort), page: query.page)
        return PageResource(
            items: try await request.contactResources(aggregates, withExtras: true),
            window: window, path: request.absoluteURL(TagPaths.apiTagContacts(tagID)),
            pageURL: query.pageURLs(of: TagPaths.apiTagContacts(tagID), on: request))
    }

    /// `{"tags": ["family", "friend"]}`: the named tags are put on the contact, made when missing.
    func setTags(request: Request) async throws -> DataEnvelope<ContactResource> {
        let contactID = try request.pathID(.contactID)
        let input = try request.jsonInput(TagListInput.self, empty: TagListInput(entries: nil))
        guard let entries = input.entries else {
            _ = try await request.contacts().contact(contactID)
            throw ValidationFailure(field: "tags", "The tags field is required.")
        }
        // Null entries are skipped like empty names; a fraction, true or an object names no tag.
        var names: [String] = []
        for entry in entries where entry != .null {
            guard let name = entry.name else {
                _ = try await request.contacts().contact(contactID)
                throw ValidationFailure(field: "tags", "Each of tags must be a tag’s name.")
            }
            names.append(name)
        }
        try await request.tags().setTags(names, onContact: contactID)
        return try await contactAnswer(request, contactID)
    }

    /// `{"tags": [12, "13"]}`: those tags come off the contact, all or none.
    func unsetTag(request: Request) async throws -> DataEnvelope<ContactResource> {
        let contactID = try request.pathID(.contactID)
        let input = try request.jsonInput(TagListInput.self, empty: TagListInput(entries: nil))
        guard let entries = input.entries else {
            _ = try await request.contacts().contact(contactID)
            throw ValidationFailure(field: "tags", "The tags field is required.")
        }
        var ids: [Int] = []
        for entry in entries {
            guard let id = entry.id else {
                _ = try await request.contacts().contact(contactID)
                throw ValidationFailure(field: "tags", "Each of tags must be a tag’s id.")
            }
            ids.append(id)
        }
        try await request.tags().unsetTags(ids, fromContact: contactID)
        return try await contactAnswer(request, contactID)
    }

    /// Every tag comes off the contact; the tags themselves stay.
    func unsetTags(request: Request) async throws -> DataEnvelope<ContactResource> {
        let contactID = try request.pathID(.contactID)
        try await request.tags().unsetAllTags(fromContact: contactID)
        return try await contactAnswer(request, contactID)
    }

    private func contactAnswer(_ request: Request, _ contactID: Int) async throws -> DataEnvelope<ContactResource> {
        try await request.contactAnswer(try await request.contacts().aggregate(contactID))
    }
}
