import LocifyAPI
import LocifyCore
import Vapor

/// `/api/journal`: Monica's journal entries.
struct JournalAPIController: RouteCollection {
    /// An entry of a million characters, each written as JSON escapes (`\ud83d\ude00`, twelve bytes for
    /// a character beyond the BMP), still fits.
    static let bodyLimit = BodyLimit.megabytes(16)

    func boot(routes: any RoutesBuilder) throws {
        routes.get(JournalPaths.api, use: index)
        routes.on(.POST, JournalPaths.api, limit: Self.bodyLimit, use: create)
        routes.get(JournalPaths.apiEntry, use: show)
        routes.on(.PUT, JournalPaths.apiEntry, limit: Self.bodyLimit, use: update)
        routes.delete(JournalPaths.apiEntry, use: delete)
    }

    func index(request: Request) async throws -> PageResource<JournalEntryResource> {
        let query = try ListQuery(from: request, defaultSort: JournalService.defaultSort)
        let (entries, window) = try await request.journal().page(sort: query.sort, page: query.page)
        return PageResource(
            items: entries.map(request.journalEntryResource), window: window,
            path: request.absoluteURL(JournalPaths.api), pageURL: query.pageURLs(of: JournalPaths.api, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<JournalEntryResource> {
        DataEnvelope(
            data: request.journalEntryResource(try await request.journal().entry(try request.pathID(.entryID))))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.journalEntryInput()
        let journal = try request.journal()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: JournalEntriesTable.self, uuid: uuid) {
            DataEnvelope(data: request.journalEntryResource(try await journal.entry($0)))
        } create: {
            let entry = try await journal.create(input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: request.journalEntryResource(entry))
        }
    }

    /// Monica asks for `title` and `post` again; Locify keeps what is left out.
    func update(request: Request) async throws -> DataEnvelope<JournalEntryResource> {
        let input = try request.journalEntryInput()
        let entry = try await request.journal().update(try request.pathID(.entryID), typeErrors: input.typeErrors) {
            input.merged(into: $0)
        }
        return DataEnvelope(data: request.journalEntryResource(entry))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.entryID)
        try await request.journal().delete(id)
        return DeletedResource(id: id)
    }
}
