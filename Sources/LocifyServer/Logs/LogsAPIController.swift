import LocifyAPI
import LocifyCore
import Vapor

/// `GET /api/logs[/{id}]` and `GET /api/contacts/{id}/logs`: the account's audit log, newest first,
/// read-only (its other methods answer 405). Every change to the account's records is in it: one entry
/// per kind of record and what was done, each time the account's data changes.
struct LogsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LogPaths.api, use: index)
        routes.get(LogPaths.apiLog, use: show)
        routes.get(LogPaths.apiContactLogs, use: indexOfContact)
    }

    func index(request: Request) async throws -> PageResource<AuditLogResource> {
        try await page(request, contactID: nil, path: LogPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<AuditLogResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: LogPaths.apiContactLogs(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        AuditLogResource
    > {
        let query = try ListQuery(from: request, defaultSort: ListSort(TimestampSortField.createdAt))
        let (entries, window) = try await request.logs().page(contactID: contactID, page: query.page)
        let author = try request.auditAuthor()
        return PageResource(
            items: try entries.map { try AuditLogResource($0, author: author) }, window: window,
            path: request.absoluteURL(path), pageURL: query.pageURLs(of: path, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<AuditLogResource> {
        let entry = try await request.logs().entry(try request.pathID(.logID))
        return DataEnvelope(data: try AuditLogResource(entry, author: try request.auditAuthor()))
    }
}

extension AuditLogResource {
    init(_ entry: AuditEntry, author: AuditLogResource.Author) throws {
        try self.init(
            id: entry.id, author: author, action: entry.action,
            objects: JSONDecoder().decode(AuditLogResource.Objects.self, from: Data(entry.objects.utf8)),
            auditedAt: entry.auditedAt)
    }
}

extension Request {
    /// The signed-in person's audit log.
    func logs() throws -> LogService {
        LogService(database: database, ownerID: try requireUser().id)
    }

    /// Who made the account's changes: its one person.
    func auditAuthor() throws -> AuditLogResource.Author {
        let user = try requireUser()
        return AuditLogResource.Author(id: user.id, name: user.profile.name)
    }
}
