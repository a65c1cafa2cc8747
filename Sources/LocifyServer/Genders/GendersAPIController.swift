import LocifyAPI
import LocifyCore
import Vapor

/// `/api/genders`: each account's list, seeded with Monica's three.
struct GendersAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(GenderPaths.api, use: index)
        routes.post(GenderPaths.api, use: create)
        routes.get(GenderPaths.apiGender, use: show)
        routes.put(GenderPaths.apiGender, use: update)
        routes.delete(GenderPaths.apiGender, use: delete)
    }

    func index(request: Request) async throws -> PageResource<GenderResource> {
        let query = try ListQuery(from: request, defaultSort: GenderService.defaultSort)
        let (genders, window) = try await request.genders().page(sort: query.sort, page: query.page)
        return PageResource(
            items: try genders.map(GenderResource.init), window: window, path: request.absoluteURL(GenderPaths.api),
            pageURL: query.pageURLs(of: GenderPaths.api, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<GenderResource> {
        DataEnvelope(data: try GenderResource(try await request.genders().gender(try request.pathID(.genderID))))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(GenderInput.self, empty: GenderInput())
        let genders = try request.genders()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: GendersTable.self, uuid: uuid) {
            DataEnvelope(data: GenderResource(try await genders.gender($0)))
        } create: {
            let gender = try await genders.create(
                name: input.name ?? nil, type: input.type ?? nil, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: GenderResource(gender))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<GenderResource> {
        let input = try request.jsonInput(GenderInput.self, empty: GenderInput())
        let gender = try await request.genders().update(
            try request.pathID(.genderID), name: input.name, type: input.type, typeErrors: input.typeErrors)
        return DataEnvelope(data: try GenderResource(gender))
    }

    /// A gender some contacts have needs `replace_by` (query or body): they move to that gender.
    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.genderID)
        var replacement = try request.jsonInput(GenderInput.self, empty: GenderInput()).replaceBy
        if let text = request.queryParameters["replace_by"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let value = LooseValue.integer(text) else {
                throw ValidationFailure(field: "replace_by", "Replacement must be a whole number.")
            }
            replacement = value
        }
        try await request.genders().delete(id, replacement: replacement)
        return DeletedResource(id: id)
    }
}

extension GenderResource {
    init(_ stored: StoredGender) {
        self.init(stored.gender, ownerID: stored.ownerID, createdAt: stored.createdAt, updatedAt: stored.updatedAt)
    }
}
