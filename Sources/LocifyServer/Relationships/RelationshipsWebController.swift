import LocifyCore
import Vapor

/// The contact page's relationships: add one on a page of its own, delete one. Both work without
/// scripts and go back to the contact's page, where both contacts show the relationship.
struct RelationshipsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(RelationshipPaths.new, use: newRelationship)
        routes.post(RelationshipPaths.contactRelationships, use: addRelationship)
        routes.post(RelationshipPaths.delete, use: deleteRelationship)
    }

    struct RelationshipForm: Content {
        var ofContact: String?
        var typeID: String?

        enum CodingKeys: String, CodingKey {
            case ofContact = "of_contact"
            case typeID = "relationship_type_id"
        }
    }

    func newRelationship(request: Request) async throws -> View {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        return try await request.view.render(
            "relationships/new", try await NewRelationshipPage.context(request, contact: contact))
    }

    func addRelationship(request: Request) async throws -> Response {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        let form = try request.content.decode(RelationshipForm.self)
        let other = form.ofContact.flatMap(LooseValue.integer)
        let type = form.typeID.flatMap(LooseValue.integer)
        return try await request.handleForm {
            _ = try await request.relationships().create(
                RelationshipDraft(contactID: contact.id, ofContactID: other, typeID: type))
            return .redirect(
                to: ContactPaths.contact(contact.id).path + "#relationships", flash: "The relationship was added.")
        } redraw: { errors in
            try await request.view.render(
                "relationships/new",
                try await NewRelationshipPage.context(
                    request, contact: contact, typed: .init(otherID: form.ofContact, typeID: form.typeID),
                    errors: errors))
        }
    }

    func deleteRelationship(request: Request) async throws -> Response {
        let relationship = try await request.relationships().relationship(try request.pathID(.relationshipID))
        try await request.relationships().delete(relationship.id)
        return request.redirect(
            to: ContactPaths.contact(relationship.contactID).path + "#relationships",
            flash: "The relationship was deleted.")
    }
}
