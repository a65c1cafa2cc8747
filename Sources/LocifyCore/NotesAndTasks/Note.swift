import Foundation

/// What a person wrote about a contact, checked: plain text, line breaks kept, and whether it is a favourite.
public struct NoteFields: Equatable, Sendable {
    public var body: String
    public var isFavorited: Bool

    public init(body: String, isFavorited: Bool) {
        self.body = body
        self.isFavorited = isFavorited
    }
}

/// A stored note about one of the owner's contacts.
public struct Note: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var fields: NoteFields
    /// When the note first became a favourite; kept while it stays one (Monica stamped it anew on each save).
    public var favoritedAt: Date?
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: NoteFields, favoritedAt: Date?, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.fields = fields
        self.favoritedAt = favoritedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A note as typed.
public struct NoteDraft: Sendable {
    public var body: String?
    /// Left out keeps what the note was (a new note is not a favourite).
    public var isFavorited: Bool?

    public init(body: String? = nil, isFavorited: Bool? = nil) {
        self.body = body
        self.isFavorited = isFavorited
    }

    public init(_ fields: NoteFields) {
        self.init(body: fields.body, isFavorited: fields.isFavorited)
    }

    public static let maximumBodyLength = 100_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "body": "Note", "is_favorited": "Favourite",
    ]

    public func validated() throws(ValidationFailure) -> NoteFields {
        var check = FieldChecker()
        let body = check.text(body, field: "body", label: "Note", limit: Self.maximumBodyLength)
        guard let body else {
            check.fail("body", "Write the note.")
            throw ValidationFailure(check.errors)
        }
        return try check.finish(NoteFields(body: body, isFavorited: isFavorited ?? false))
    }
}
