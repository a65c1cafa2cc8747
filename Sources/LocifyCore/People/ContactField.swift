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

    /// The `type` of the E-mail kind, and of the Phone kind: contacts' e-mails and phone numbers are
    /// the fields of those two kinds.
    public static let emailType = "email"
    public static let phoneType = "phone"

    /// A field type as typed: `name` required, the others optional text, all at most 255 characters.
    /// `storedType` is the kind's type before the change (nil for a new kind): `email` and `phone` stay
    /// with the E-mail and Phone kinds, neither given to another kind nor taken from them.
    public static func validated(
        name: String?, icon: String?, linkProtocol: String?, type: String?, storedType: String?
    ) throws(ValidationFailure) -> (name: String, icon: String?, linkProtocol: String?, type: String?) {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name")
        if name == nil { check.fail("name", "Name the kind of field.") }
        let icon = check.text(icon, field: "fontawesome_icon", label: "Icon")
        let linkProtocol = check.text(linkProtocol, field: "protocol", label: "Protocol")
        let type = check.text(type, field: "type", label: "Type")
        let reserved = [emailType, phoneType]
        if type != storedType,
            [type, storedType].contains(where: { $0.map { reserved.contains($0.lowercased()) } ?? false })
        {
            check.fail(
                "type",
                "Type “email” and “phone” belong to the E-mail and Phone kinds: they cannot be given to another "
                    + "kind or taken from those.", reason: .conflict)
        }

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

    /// `text` as a label: a standard key or a standard label's name (`cell`, `Mobile`) in any case, or the
    /// text itself; nil when blank.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let lowered = trimmed.lowercased()
        if let label = Self.standard[lowered] {
            self.init(type: lowered, label: label)
        } else if let (key, label) = Self.standard.first(where: { $0.value.lowercased() == lowered }) {
            self.init(type: key, label: label)
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

    /// Problems with labels as typed: each is text like any other (at most 255 characters, no NUL), and
    /// a rule is named once however many labels break it.
    public static func labelProblems(_ labels: [String]?) -> [FieldError] {
        var check = FieldChecker()
        for label in labels ?? [] {
            _ = check.text(label, field: "labels", label: "Each label", limit: maximumDataLength)
            if !check.errors.isEmpty { break }
        }
        return check.errors
    }

    /// A field's value as typed: required, at most 255 characters once trimmed.
    public static func validatedData(_ text: String?) throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let data = check.text(text, field: "data", label: "Value")
        guard let data else { throw ValidationFailure([FieldError(field: "data", message: "Type the value.")]) }
        return try check.finish(data)
    }
}

extension ContactFieldType {
    public var isEmail: Bool { type == Self.emailType }
    public var isPhone: Bool { type == Self.phoneType }

    /// `data` as a URI of this kind: the protocol and the data (`tel:+4420…`, `https://wa.me/44…`), or the
    /// data alone when it is a URI already (`https://facebook.com/ada`). A phone number loses its spaces,
    /// which `tel:` URIs may not hold. Nil without a protocol.
    public func uri(for data: String) -> String? {
        if Self.scheme(of: data).map({ ["http", "https", "mailto", "tel"].contains($0) }) ?? false { return data }
        guard let linkProtocol, !linkProtocol.isEmpty else { return nil }
        let value = linkProtocol.lowercased() == "tel:" ? data.filter { !$0.isWhitespace } : data
        return linkProtocol + value
    }

    /// A link a page may show for `data`: `uri(for:)` unless its scheme could run script or read files.
    public func link(for data: String) -> String? {
        guard let uri = uri(for: data), let scheme = Self.scheme(of: uri),
            !["javascript", "vbscript", "data", "file"].contains(scheme)
        else { return nil }
        return uri
    }

    /// The data a URI holds for this kind: what follows the protocol (`https://wa.me/4420` → `4420`),
    /// or, for a kind without one, what follows a scheme named as the kind (`skype:ada` for Skype). Nil
    /// when the URI is not of this kind.
    public func data(fromURI uri: String) -> String? {
        if let linkProtocol, !linkProtocol.isEmpty {
            for variant in Self.variants(of: linkProtocol)
            where uri.lowercased().hasPrefix(variant) && uri.count > variant.count {
                return String(uri.dropFirst(variant.count))
            }
            return nil
        }
        guard let nameScheme, let scheme = Self.scheme(of: uri), scheme == nameScheme else { return nil }
        let rest = uri.dropFirst(scheme.count + 1)
        return rest.isEmpty ? nil : String(rest)
    }

    /// The kind's name as a URI scheme (`skype` for Skype), for a kind without a protocol to travel in
    /// a vCard's IMPP; nil when the name has no letters.
    public var nameScheme: String? {
        let folded = String(TextFolding.searchKey([name]).filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        guard let first = folded.first, first.isLetter else { return nil }
        return folded
    }

    /// A protocol as written and as other apps write it: `https://twitter.com/` also matches
    /// `http://www.twitter.com/`.
    private static func variants(of linkProtocol: String) -> [String] {
        let lowered = linkProtocol.lowercased()
        guard let range = lowered.range(of: "://") else { return [lowered] }
        let host = lowered[range.upperBound...]
        let bare = host.hasPrefix("www.") ? String(host.dropFirst(4)) : String(host)
        return ["https://", "http://"].flatMap { [$0 + bare, $0 + "www." + bare] }
    }

    /// The lower-cased scheme of a URI (`https`, `tel`), if it starts with one.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}

/// A contact field to create, as an import reads it.
public struct ContactFieldDraft: Equatable, Sendable {
    public var typeID: Int
    public var data: String
    public var labels: [String]

    public init(typeID: Int, data: String, labels: [String] = []) {
        self.typeID = typeID
        self.data = data
        self.labels = labels
    }
}
