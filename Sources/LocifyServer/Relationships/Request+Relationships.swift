import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's relationships.
    func relationships() throws -> RelationshipService {
        RelationshipService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a relationship input (see `jsonInput`).
    func relationshipInput() throws -> RelationshipInput {
        try jsonInput(RelationshipInput.self, empty: RelationshipInput(draft: RelationshipDraft(), presentKeys: []))
    }

    func relationshipResource(_ relationship: Relationship) async throws -> RelationshipResource {
        try await relationshipResources([relationship])[0]
    }

    /// Each relationship with both its contacts, the contacts read in one query.
    func relationshipResources(_ relationships: [Relationship]) async throws -> [RelationshipResource] {
        let base = baseURL
        let year = today.year
        let since = try requireUser().createdAt
        let contacts = try await self.contacts().contacts(relationships.flatMap { [$0.contactID, $0.ofContactID] })
        return try relationships.map { relationship in
            guard let contact = contacts[relationship.contactID], let other = contacts[relationship.ofContactID] else {
                throw AppError.notFound
            }
            return RelationshipResource(
                relationship, url: base + RelationshipPaths.apiRelationship(relationship.id).path,
                contact: contactShortResource(contact, currentYear: year, baseURL: base),
                ofContact: contactShortResource(other, currentYear: year, baseURL: base), typesSince: since)
        }
    }
}
