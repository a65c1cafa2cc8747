import LocifyAPI
import LocifyCore
import Vapor

/// `/api/companies`: the account's companies, which occupations name. An update changes what it
/// sends and keeps the rest; deleting a company deletes the occupations at it.
struct CompaniesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkPaths.apiCompanies, use: index)
        routes.post(WorkPaths.apiCompanies, use: create)
        routes.get(WorkPaths.apiCompany, use: show)
        routes.put(WorkPaths.apiCompany, use: update)
        routes.delete(WorkPaths.apiCompany, use: delete)
    }

    func index(request: Request) async throws -> PageResource<CompanyResource> {
        let query = try ListQuery(from: request, defaultSort: CompanyService.defaultSort)
        let (companies, window) = try await request.companies().page(sort: query.sort, page: query.page)
        return PageResource(
            items: companies.map(CompanyResource.init), window: window,
            path: request.absoluteURL(WorkPaths.apiCompanies),
            pageURL: query.pageURLs(of: WorkPaths.apiCompanies, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<CompanyResource> {
        DataEnvelope(data: CompanyResource(try await request.companies().company(try request.pathID(.companyID))))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(CompanyInput.self, empty: CompanyInput())
        let companies = try request.companies()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: CompaniesTable.self, uuid: uuid) {
            DataEnvelope(data: CompanyResource(try await companies.company($0)))
        } create: {
            let company = try await companies.create(input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: CompanyResource(company))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<CompanyResource> {
        let input = try request.jsonInput(CompanyInput.self, empty: CompanyInput())
        let company = try await request.companies().update(
            try request.pathID(.companyID), typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: CompanyResource(company))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.companyID)
        try await request.companies().delete(id)
        return DeletedResource(id: id)
    }
}
