import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's companies.
    func companies() throws -> CompanyService {
        CompanyService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The signed-in user's contacts' occupations.
    func occupations() throws -> OccupationService {
        OccupationService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each occupation with its company and its contact, each kind read in one query.
    func occupationResources(_ occupations: [Occupation]) async throws -> [OccupationResource] {
        let companies = try await self.companies().companies(occupations.map(\.fields.companyID))
        return try await resources(occupations, contactOf: \.contactID) { occupation, contact in
            guard let company = companies[occupation.fields.companyID] else { throw AppError.notFound }
            return OccupationResource(occupation, company: CompanyResource(company), contact: contact)
        }
    }
}
