import LocifyAPI
import LocifyCore
import Vapor

/// `/api/notes` and `/api/contacts/{id}/notes`.
struct NotesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(NotePaths.api, use: index)
        routes.on(.POST, NotePaths.api, limit: .longText, use: create)
        routes.get(NotePaths.apiNote, use: show)
        routes.on(.PUT, NotePaths.apiNote, limit: .longText, use: update)
        routes.delete(NotePaths.apiNote, use: delete)
        routes.get(NotePaths.apiContactNotes, use: indexOfContact)
        routes.on(.POST, NotePaths.apiContactNotes, limit: .longText, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<NoteResource> {
        try await page(request, contactID: try request.contactFilter(), path: NotePaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<NoteResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: NotePaths.apiContactNotes(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        NoteResource
    > {
        let query = try ListQuery(from: request, defaultSort: NoteService.defaultSort)
        let (notes, window) = try await request.notes().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.noteResources(notes), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<NoteResource> {
        let note = try await request.notes().note(try request.pathID(.noteID))
        return DataEnvelope(data: try await request.noteResource(note))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.noteInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/notes` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.noteInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: NoteInput, contactID: Int?) async throws -> Response {
        let notes = try request.notes()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: NotesTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.noteResource(try await notes.note($0)))
        } create: {
            let note = try await notes.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.noteResource(note))
        }
    }

    /// Monica asks for `contact_id` and `body` again; Locify keeps what is left out, and moves the note
    /// when another of the owner's contacts is named.
    func update(request: Request) async throws -> DataEnvelope<NoteResource> {
        let input = try request.noteInput()
        let note = try await request.notes().update(
            try request.pathID(.noteID), contactID: input.contactID, typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.noteResource(note))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.noteID)
        try await request.notes().delete(id)
        return DeletedResource(id: id)
    }
}
