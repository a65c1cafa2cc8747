import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// Monica's routes of a kind of record that belongs to one contact (a call, a debt, a gift, a pet, a life
/// event): the account's list (`?contact_id=` keeps one contact's), the contact's own list, a create by
/// either path that takes the client's uuid, show, update and delete. Each feature says where they are
/// and how its service answers; the routes answer alike, and a sync push changes the records through the
/// same calls (`syncWrites`).
struct ContactRecordRoutes<Table: StoredTable, SortField, Record: Sendable, Input: Decodable & Sendable, Resource>:
    RouteCollection, Sendable
where
    SortField: RawRepresentable & CaseIterable & Equatable & Sendable, SortField.RawValue == String,
    Resource: Codable & Sendable
{
    /// `/api/debts`.
    let list: SitePath
    /// `/api/debts/{id}`.
    let record: SitePathWithOne<Int>
    let recordID: PathParameter
    /// `/api/contacts/{id}/debts`, which also takes `POST` (Monica lacks it or answers 405; clients call it).
    let contactList: SitePathWithOne<Int>
    /// How much a create or an update reads; nil for the standard limit.
    let bodyLimit: BodyLimit?
    let defaultSort: ListSort<SortField>
    /// The input of an empty body.
    let emptyInput: @Sendable () -> Input
    /// The contact a create's body names.
    let contactID: @Sendable (Input) -> Int?
    let id: @Sendable (Record) -> Int
    /// One page, of one contact's records when it names one.
    let page: @Sendable (Request, _ contactID: Int?, ListQuery<SortField>) async throws -> ([Record], PageWindow)
    let find: @Sendable (Request, Int) async throws -> Record
    /// Makes a record of the contact, named by the client's uuid when it sent one.
    let create: @Sendable (Request, _ contactID: Int?, Input, UUID?) async throws -> Record
    /// Changes the record with what the input holds; what it leaves out is kept.
    let update: @Sendable (Request, Int, Input) async throws -> Record
    let delete: @Sendable (Request, Int) async throws -> Void
    let resources: @Sendable (Request, [Record]) async throws -> [Resource]
    /// What a list carries besides its page (the calls' yearly statistics).
    var statistics: (@Sendable (Request) async throws -> YearlyCounts)? = nil

    func boot(routes: any RoutesBuilder) throws {
        routes.get(list, use: index)
        routes.get(record, use: show)
        routes.delete(record, use: remove)
        routes.get(contactList, use: indexOfContact)
        if let bodyLimit {
            routes.on(.POST, list, limit: bodyLimit, use: createFromBody)
            routes.on(.PUT, record, limit: bodyLimit, use: change)
            routes.on(.POST, contactList, limit: bodyLimit, use: createForContact)
        } else {
            routes.post(list, use: createFromBody)
            routes.put(record, use: change)
            routes.post(contactList, use: createForContact)
        }
    }

    func index(request: Request) async throws -> PageResource<Resource> {
        try await pageOf(request, contactID: try request.contactFilter(), path: list)
    }

    func indexOfContact(request: Request) async throws -> PageResource<Resource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await pageOf(request, contactID: contactID, path: contactList(contactID))
    }

    private func pageOf(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        Resource
    > {
        let query = try ListQuery(from: request, defaultSort: defaultSort)
        let (found, window) = try await page(request, contactID, query)
        var answer = PageResource(
            items: try await resources(request, found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
        if let statistics { answer.meta.statistics = try await statistics(request) }
        return answer
    }

    func show(request: Request) async throws -> DataEnvelope<Resource> {
        try await answer(request, try await find(request, try request.pathID(recordID)))
    }

    func createFromBody(request: Request) async throws -> Response {
        let input = try request.jsonInput(Input.self, empty: emptyInput())
        return try await created(request, input: input, contactID: contactID(input))
    }

    /// A create on the contact's list: the path names the contact, whatever the body says.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(
            request, input: try request.jsonInput(Input.self, empty: emptyInput()), contactID: contactID)
    }

    private func created(_ request: Request, input: Input, contactID: Int?) async throws -> Response {
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: Table.self, uuid: uuid) {
            try await answer(request, try await find(request, $0))
        } create: {
            try await answer(request, try await create(request, contactID, input, uuid))
        }
    }

    func change(request: Request) async throws -> DataEnvelope<Resource> {
        let input = try request.jsonInput(Input.self, empty: emptyInput())
        return try await answer(request, try await update(request, try request.pathID(recordID), input))
    }

    func remove(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(recordID)
        try await delete(request, id)
        return DeletedResource(id: id)
    }

    private func answer(_ request: Request, _ record: Record) async throws -> DataEnvelope<Resource> {
        DataEnvelope(data: try await resources(request, [record])[0])
    }

    /// How a push changes these records: through the routes' own calls. `fields` are the keys the
    /// input reads; `references` name records by the uuids the client made them with.
    func syncWrites(fields: Set<String>, references: [SyncReference] = [.contact]) -> SyncWrites {
        SyncWrites(
            reading: Input.self, fields: fields, references: references,
            create: { [create, contactID, id] request, input, uuid in
                id(try await create(request, contactID(input), input, uuid))
            },
            update: { [update] request, recordID, input in _ = try await update(request, recordID, input) },
            delete: { [delete] request, recordID, _ in try await delete(request, recordID) })
    }
}
