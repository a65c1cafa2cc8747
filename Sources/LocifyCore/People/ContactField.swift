import Foundation

/// A kind of contact field (Monica's contact field type): e-mail, phone, or a social network, with the
/// protocol a link to it starts with (`mailto:`, `tel:`, `https://wa.me/`).
public struct ContactFieldType: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var name: String
    public var icon: String?
    public var linkProtocol: String?
    /// E-mail and phone stay: contacts' e-mails and phone numbers depend on them.
    public var isDelible: Bool
    /// `email`, `phone`, or nil for the others.
    public var type: String?
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, name: String, icon: String?, linkProtocol: String?, isDelible: Bool,
        type: String?, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.name = name
        self.icon = icon
        self.linkProtocol = linkProtocol
        self.isDelible = isDelible
        self.type = type
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's defaults, in its order (its migration left Twitter and LinkedIn without a protocol).
    public static let defaults: [(name: String, icon: String, linkProtocol: String, isDelible: Bool, type: String?)] = [
        ("Email", "fa fa-envelope-open-o", "mailto:", false, "email"),
        ("Phone", "fa fa-volume-control-phone", "tel:", false, "phone"),
        ("Facebook", "fa fa-facebook-official", "https://facebook.com/", true, nil),
        ("Twitter", "fa fa-twitter-square", "https://twitter.com/", true, nil),
        ("Whatsapp", "fa fa-whatsapp", "https://wa.me/", true, nil),
        ("Telegram", "fa fa-telegram", "telegram:", true, nil),
        ("LinkedIn", "fa fa-linkedin-square", "https://linkedin.com/in/", true, nil),
    ]

    /// A field type as typed: `name` required, the others optional text, all at most 255 characters.
    public static func validated(name: String?, icon: String?, linkProtocol: String?, type: String?)
        throws(ValidationFailure) -> (name: String, icon: String?, linkProtocol: String?, type: String?)
    {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name")
        if name == nil { check.fail("name", "Name the kind of field.") }
        let icon = check.text(icon, field: "fontawesome_icon", label: "Icon")
        let linkProtocol = check.text(linkProtocol, field: "protocol", label: "Protocol")
        let type = check.text(type, field: "type", label: "Type")
        guard let name else { throw ValidationFailure(check.errors) }
        return try check.finish((name, icon, linkProtocol, type))
    }
}

/// One of a contact field's labels: a standard one (`home` shown as Home…) or the owner's own text.
public struct ContactFieldLabel: Equatable, Sendable {
    public var type: String
    public var label: String

    public init(type: String, label: String) {
        self.type = type
        self.label = label
    }

    public static let standard: [String: String] = [
        "home": "Home", "work": "Work", "cell": "Mobile", "fax": "Fax", "pager": "Pager", "main": "Main",
        "other": "Other",
    ]

    /// `text` as a label: a standard key in any case, or the text itself; nil when blank.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if let label = Self.standard[trimmed.lowercased()] {
            self.init(type: trimmed.lowercased(), label: label)
        } else {
            self.init(type: trimmed, label: trimmed)
        }
    }
}

/// A phone number, an e-mail or a social account of a contact, as typed (no format is imposed).
public struct ContactField: Equatable, Sendable {
    /// A label as stored: labels are replaced as a set, never changed in place.
    public struct StoredLabel: Equatable, Sendable {
        public let id: Int
        public var label: ContactFieldLabel
        public let createdAt: Date

        public init(id: Int, label: ContactFieldLabel, createdAt: Date) {
            self.id = id
            self.label = label
            self.createdAt = createdAt
        }
    }

    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var typeID: Int
    public var data: String
    public var labels: [StoredLabel]
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, typeID: Int, data: String, labels: [StoredLabel],
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.typeID = typeID
        self.data = data
        self.labels = labels
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The longest value, and the longest label, in Unicode scalars.
    public static let maximumDataLength = 255

    /// A field's value as typed: required, at most 255 characters once trimmed.
    public static func validatedData(_ text: String?) throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let data = check.text(text, field: "data", label: "Value")
        guard let data else { throw ValidationFailure([FieldError(field: "data", message: "Type the value.")]) }
        return try check.finish(data)
    }
}
