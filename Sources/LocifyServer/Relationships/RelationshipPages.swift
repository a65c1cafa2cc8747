import Foundation
import LocifyCore
import Vapor

/// One relationship as a contact page lists it: the other contact, linked, and what they are to this one.
struct RelationshipLine: Encodable {
    let id: Int
    let name: String
    let contactURL: String
    let role: String
    let deleteURL: String

    init(_ relationship: ContactRelationship, of contact: Contact) {
        id = relationship.relationship.id
        name = relationship.ofContact.completeName
        contactURL = ContactPaths.contact(relationship.ofContact.id).path
        role = "\(contact.fields.firstName)’s \(relationship.relationship.type.label)"
        deleteURL = RelationshipPaths.delete(relationship.relationship.id).path
    }
}

/// The contact page's relationships, by group as Monica shows them, and where to add one.
struct ContactRelationshipsSection: Encodable {
    let items: [RelationshipLine]
    let addURL: String

    init(contact: Contact, relationships: [ContactRelationship]) {
        items = relationships.sorted { $0.relationship.type.group.rawValue < $1.relationship.type.group.rawValue }
            .map { RelationshipLine($0, of: contact) }
        addURL = RelationshipPaths.new(contact.id).path
    }
}

/// `/contacts/{id}/relationships/new`: a page of its own, so the contact page does not carry a list of
/// every contact for a form seldom used.
enum NewRelationshipPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let contactName: String
        let formURL: String
        let cancelURL: String
        let otherField: FormField
        let typeField: FormField
    }

    struct Typed {
        var otherID: String?
        var typeID: String?
    }

    static func context(
        _ request: Request, contact: Contact, typed: Typed = Typed(), errors: FieldMessages = [:]
    ) async throws -> Context {
        let others = try await request.contacts().allByName().filter { $0.id != contact.id }
        let chosenOther = typed.otherID ?? ""
        let chosenType = typed.typeID ?? ""
        let name = contact.fields.firstName
        return Context(
            layout: LayoutContext(
                title: "Add a relationship of \(contact.completeName)", section: .contacts,
                session: request.pageSession),
            contactName: contact.completeName, formURL: RelationshipPaths.contactRelationships(contact.id).path,
            cancelURL: ContactPaths.contact(contact.id).path,
            otherField: FormField(
                "of_contact", label: "Who", control: .select, errors: errors, isRequired: true,
                options: [SelectOption(value: "", label: "Choose a contact", isSelected: chosenOther.isEmpty)]
                    + others.map {
                        SelectOption(
                            value: String($0.id), label: $0.completeName, isSelected: String($0.id) == chosenOther)
                    },
                filterPlaceholder: "Type to find a contact"),
            typeField: FormField(
                "relationship_type_id", label: "is \(name)’s", control: .select, errors: errors, isRequired: true,
                options: [SelectOption(value: "", label: "Choose", isSelected: chosenType.isEmpty)]
                    // By group, as Monica's form offers them; Monica's later additions join their group.
                    + RelationshipType.all.sorted { ($0.group.rawValue, $0.id) < ($1.group.rawValue, $1.id) }.map {
                        SelectOption(
                            value: String($0.id), label: "\($0.label) (\($0.group.name))",
                            isSelected: String($0.id) == chosenType)
                    }))
    }
}
