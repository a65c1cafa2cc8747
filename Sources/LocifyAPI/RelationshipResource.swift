import Foundation
import LocifyCore

/// Monica's relationship type group (`love`, `family`, `friend`, `work`).
public struct RelationshipTypeGroupResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "relationshiptypegroup"
    public var name: String
    public var delible: Bool
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name, delible, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `since` stamps the defaults: when the account was made, as Monica seeds them then.
    public init(_ group: RelationshipTypeGroup, ownerID: Int, since: Date) {
        id = group.id
        name = group.name
        delible = false
        account = AccountReference(id: ownerID)
        createdAt = Timestamp.string(since)
        updatedAt = createdAt
    }
}

/// Monica's relationship type.
public struct RelationshipTypeResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "relationshiptype"
    public var name: String
    public var nameReverseRelationship: String
    public var relationshipTypeGroupID: Int
    public var delible: Bool
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case nameReverseRelationship = "name_reverse_relationship"
        case relationshipTypeGroupID = "relationship_type_group_id"
        case delible, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ type: RelationshipType, ownerID: Int, since: Date) {
        id = type.id
        name = type.name
        nameReverseRelationship = type.reverseName
        relationshipTypeGroupID = type.group.id
        delible = false
        account = AccountReference(id: ownerID)
        createdAt = Timestamp.string(since)
        updatedAt = createdAt
    }
}

/// Monica's relationship: `of_contact` is `contact_is`'s `relationship_type`.
public struct RelationshipResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "relationship"
    public var contactIs: ContactShortResource
    public var relationshipType: RelationshipTypeResource
    public var ofContact: ContactShortResource
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case contactIs = "contact_is"
        case relationshipType = "relationship_type"
        case ofContact = "of_contact"
        case url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(
        _ relationship: Relationship, url: String, contact: ContactShortResource, ofContact: ContactShortResource,
        typesSince: Date
    ) {
        id = relationship.id
        uuid = relationship.uuid.lowercasedText
        contactIs = contact
        relationshipType = RelationshipTypeResource(
            relationship.type, ownerID: relationship.ownerID, since: typesSince)
        self.ofContact = ofContact
        self.url = url
        account = AccountReference(id: relationship.ownerID)
        createdAt = Timestamp.string(relationship.createdAt)
        updatedAt = Timestamp.string(relationship.updatedAt)
    }
}

/// One relationship as a contact's `information.relationships` lists it: the type's name and the other
/// contact.
public struct RelationshipShortResource: Codable, Sendable, Equatable {
    public struct Summary: Codable, Sendable, Equatable {
        public var id: Int
        public var uuid: String
        public var name: String
    }

    public var relationship: Summary
    public var contact: ContactShortResource

    public init(_ relationship: Relationship, ofContact: ContactShortResource) {
        self.relationship = Summary(
            id: relationship.id, uuid: relationship.uuid.lowercasedText, name: relationship.type.name)
        contact = ofContact
    }
}

/// The body of the relationship routes, read leniently like `ContactInput`.
public struct RelationshipInput: Decodable, Sendable {
    public private(set) var draft = RelationshipDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: RelationshipDraft, presentKeys: Set<String>) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: RelationshipDraft.fieldLabels)
        draft.contactID = reader.integer("contact_is")
        draft.ofContactID = reader.integer("of_contact")
        draft.typeID = reader.integer("relationship_type_id")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }
}
