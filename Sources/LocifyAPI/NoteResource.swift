import Foundation
import LocifyCore

/// Monica's note, with Locify's `contact_id` after its keys (as on addresses and reminders).
public struct NoteResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "note"
    public var body: String
    public var isFavorited: Bool
    @Nullable public var favoritedAt: String?
    public var url: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, body
        case isFavorited = "is_favorited"
        case favoritedAt = "favorited_at"
        case url, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ note: Note, url: String, contact: ContactShortResource) {
        id = note.id
        uuid = note.uuid.lowercasedText
        body = note.fields.body
        isFavorited = note.fields.isFavorited
        favoritedAt = note.favoritedAt.map(Timestamp.string)
        self.url = url
        account = AccountReference(id: note.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(note.createdAt)
        updatedAt = Timestamp.string(note.updatedAt)
        contactID = note.contactID
    }
}

/// The body of the note routes, read leniently like `ContactInput`.
public struct NoteInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = NoteDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: NoteDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: NoteDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.body = reader.string("body")
        draft.isFavorited = reader.boolean("is_favorited")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores (a favourite left out stays one).
    public func merged(into existing: NoteDraft) -> NoteDraft {
        var result = existing
        if presentKeys.contains("body") { result.body = draft.body }
        if let favorited = draft.isFavorited { result.isFavorited = favorited }
        return result
    }
}
