import Foundation
import LocifyCore

/// `{id, uuid, object: "place_comment", body, place_id, author: {id, name}, is_edited, url, account,
/// created_at, updated_at}`: a comment on a place, with who wrote it.
public struct PlaceCommentResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "place_comment"
    public var body: String
    public var placeID: Int
    public var author: Author
    public var isEdited: Bool
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    /// The account that wrote a comment, by the name it goes by.
    public typealias Author = AccountName

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, body
        case placeID = "place_id"
        case author
        case isEdited = "is_edited"
        case url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ comment: PlaceComment, url: String, authorName: String) {
        id = comment.id
        uuid = comment.uuid.lowercasedText
        body = comment.body
        placeID = comment.placeID
        author = Author(id: comment.authorID, name: authorName)
        isEdited = comment.isEdited
        self.url = url
        account = AccountReference(id: comment.ownerID)
        createdAt = Timestamp.string(comment.createdAt)
        updatedAt = Timestamp.string(comment.updatedAt)
    }
}

/// The body of the comment routes, read leniently like `NoteInput`: `place_id` (on create) and `body`.
public struct PlaceCommentInput: Decodable, Sendable {
    public private(set) var placeID: Int?
    public private(set) var draft = PlaceCommentDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(placeID: Int? = nil, draft: PlaceCommentDraft, presentKeys: Set<String>) {
        self.placeID = placeID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: PlaceCommentDraft.fieldLabels)
        placeID = reader.integer("place_id")
        draft.body = reader.string("body")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: PlaceCommentDraft) -> PlaceCommentDraft {
        presentKeys.contains("body") ? draft : existing
    }
}
