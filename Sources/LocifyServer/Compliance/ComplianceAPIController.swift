import LocifyAPI
import LocifyCore
import Vapor

/// Monica's compliance routes. `GET /api/compliance[/{id}]` answers without a token, as Monica's does:
/// an app shows the policy before the person has an account.
struct PoliciesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CompliancePaths.policies, use: index)
        routes.get(CompliancePaths.policy, use: show)
    }

    func index(request: Request) async throws -> PageResource<PolicyResource> {
        let query = try ListQuery(from: request, defaultSort: ListSort(TimestampSortField.createdAt))
        let page = query.page.slice(Policy.all)
        return PageResource(
            items: page.items.map(PolicyResource.init), window: page.window,
            path: request.absoluteURL(CompliancePaths.policies),
            pageURL: query.pageURLs(of: CompliancePaths.policies, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<PolicyResource> {
        guard let policy = Policy.policy(try request.pathID(.policyID)) else { throw AppError.notFound }
        return DataEnvelope(data: PolicyResource(policy))
    }
}

/// `GET/POST /api/me/compliance` and `GET /api/me/compliance/{id}`: what the signed-in person agreed to.
/// Monica answers 404 while they have agreed to nothing.
struct SignedPoliciesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CompliancePaths.signed, use: index)
        routes.post(CompliancePaths.signed, use: sign)
        routes.get(CompliancePaths.signedPolicy, use: show)
    }

    func index(request: Request) async throws -> DataEnvelope<[SignedPolicyResource]> {
        let signed = try await request.compliance().signed()
        guard !signed.isEmpty else { throw AppError.notFound }
        let user = try await request.userResource()
        return DataEnvelope(data: signed.map { SignedPolicyResource($0, user: user) })
    }

    func show(request: Request) async throws -> DataEnvelope<SignedPolicyResource> {
        let id = try request.pathID(.policyID)
        guard let signed = try await request.compliance().signed().first(where: { $0.policy.id == id }) else {
            throw AppError.notFound
        }
        return DataEnvelope(data: SignedPolicyResource(signed, user: try await request.userResource()))
    }

    func sign(request: Request) async throws -> DataEnvelope<SignedPolicyResource> {
        let input = try request.jsonInput(PolicySigningInput.self, empty: PolicySigningInput())
        let signed = try await request.compliance().signCurrent(
            ipAddress: input.ipAddress, typeErrors: input.typeErrors)
        return DataEnvelope(data: SignedPolicyResource(signed, user: try await request.userResource()))
    }
}

extension Request {
    /// The signed-in person's agreements.
    func compliance() throws -> ComplianceService {
        ComplianceService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }
}
