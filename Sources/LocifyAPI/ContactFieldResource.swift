import Foundation
import LocifyCore

/// Monica's contact field type.
public struct ContactFieldTypeResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "contactfieldtype"
    public var name: String
    @Nullable public var fontawesomeIcon: String?
    @Nullable public var `protocol`: String?
    public var delible: Bool
    @Nullable public var type: String?
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name
        case fontawesomeIcon = "fontawesome_icon"
        case `protocol`, delible, type, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ kind: ContactFieldType) {
        id = kind.id
        uuid = kind.uuid.lowercasedText
        name = kind.name
        fontawesomeIcon = kind.icon
        self.protocol = kind.linkProtocol
        delible = kind.isDelible
        type = kind.type
        account = AccountReference(id: kind.ownerID)
        createdAt = Timestamp.string(kind.createdAt)
        updatedAt = Timestamp.string(kind.updatedAt)
    }
}

/// One label of a contact field.
public struct ContactFieldLabelResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "contactfieldlabel"
    public var type: String
    public var label: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, type, label, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// Monica's contact field: `content` is what clients send as `data`.
public struct ContactFieldResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "contactfield"
    public var content: String
    public var contactFieldType: ContactFieldTypeResource
    public var labels: [ContactFieldLabelResource]
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, content
        case contactFieldType = "contact_field_type"
        case labels, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ field: ContactField, type: ContactFieldType, contact: ContactShortResource) {
        id = field.id
        uuid = field.uuid.lowercasedText
        content = field.data
        contactFieldType = ContactFieldTypeResource(type)
        let account = AccountReference(id: field.ownerID)
        labels = field.labels.map { stored in
            let written = Timestamp.string(stored.createdAt)
            return ContactFieldLabelResource(
                id: stored.id, type: stored.label.type, label: stored.label.label, account: account,
                createdAt: written, updatedAt: written)
        }
        self.account = account
        self.contact = contact
        createdAt = Timestamp.string(field.createdAt)
        updatedAt = Timestamp.string(field.updatedAt)
    }
}

/// The body of the contact field routes.
public struct ContactFieldInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var typeID: Int?
    public private(set) var data: String?
    /// nil when left out or not an array of text.
    public private(set) var labels: [String]?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(
            container: container,
            labels: ["contact_id": "Contact", "contact_field_type_id": "Kind of field", "data": "Value"])
        contactID = reader.integer("contact_id")
        typeID = reader.integer("contact_field_type_id")
        data = reader.string("data")
        let labelsKey = LenientKey(stringValue: "labels")
        if container.contains(labelsKey), !((try? container.decodeNil(forKey: labelsKey)) ?? false) {
            if let texts = try? container.decode([String].self, forKey: labelsKey) {
                labels = texts
            } else {
                reader.fail("labels", "Labels must be a list of words (home, work, cell… or your own).")
            }
        }
        typeErrors = reader.errors
    }
}

/// The body of the contact field type routes; on update a key left out keeps its value.
public struct ContactFieldTypeInput: Decodable, Sendable {
    public private(set) var name: String?? = .none
    public private(set) var icon: String?? = .none
    public private(set) var linkProtocol: String?? = .none
    public private(set) var type: String?? = .none
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(
            container: container,
            labels: ["name": "Name", "fontawesome_icon": "Icon", "protocol": "Protocol", "type": "Type"])
        func read(_ key: String) -> String?? {
            container.contains(LenientKey(stringValue: key)) ? .some(reader.string(key)) : .none
        }
        name = read("name")
        icon = read("fontawesome_icon")
        linkProtocol = read("protocol")
        type = read("type")
        typeErrors = reader.errors
    }
}
