import Foundation

/// What one of the owner's contacts is to another, seen from the first: "`ofContactID` is `contactID`'s
/// `type`" (Monica's `contact_is`, `relationship_type`, `of_contact`). Monica keeps one such record for
/// each side, and so does Locify: adding "Anna is Ben's parent" also adds "Ben is Anna's child".
public struct Relationship: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public let ofContactID: Int
    public var type: RelationshipType
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, ofContactID: Int, type: RelationshipType,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.ofContactID = ofContactID
        self.type = type
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A relationship as asked for: Monica's three ids, each required.
public struct RelationshipDraft: Sendable {
    public var contactID: Int?
    public var ofContactID: Int?
    public var typeID: Int?

    public init(contactID: Int? = nil, ofContactID: Int? = nil, typeID: Int? = nil) {
        self.contactID = contactID
        self.ofContactID = ofContactID
        self.typeID = typeID
    }

    public static let fieldLabels: [String: String] = [
        "contact_is": "Contact", "of_contact": "Related contact", "relationship_type_id": "Relationship",
    ]

    /// The checked ids and type; whether the contacts exist and belong to the owner is the service's to ask.
    public func validated() throws(ValidationFailure) -> (contactID: Int, ofContactID: Int, type: RelationshipType) {
        var check = FieldChecker()
        if contactID == nil { check.fail("contact_is", "Choose the contact the relationship is about.") }
        if ofContactID == nil { check.fail("of_contact", "Choose the related contact.") }
        let type = Self.type(typeID, check: &check)
        // Not a broken rule of the input's form, which a schema could say: a conflict between the two.
        if let contactID, contactID == ofContactID {
            check.fail(
                "of_contact", "A contact cannot be in a relationship with themselves.", reason: .conflict)
        }
        guard let contactID, let ofContactID, let type else { throw ValidationFailure(check.errors) }
        return try check.finish((contactID, ofContactID, type))
    }

    /// The type a retyping asks for.
    public static func validatedType(_ id: Int?) throws(ValidationFailure) -> RelationshipType {
        var check = FieldChecker()
        guard let type = type(id, check: &check) else { throw ValidationFailure(check.errors) }
        return type
    }

    private static func type(_ id: Int?, check: inout FieldChecker) -> RelationshipType? {
        guard let id else {
            check.fail("relationship_type_id", "Choose the kind of relationship.")
            return nil
        }
        guard let type = RelationshipType.type(id) else {
            check.fail("relationship_type_id", "The selected relationship type id is invalid.")
            return nil
        }
        return type
    }
}
