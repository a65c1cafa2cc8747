import Foundation

/// A dated remark about a place, plain text as written (no Markdown: what is typed is what shows). It
/// lives in the place owner's records (`ownerID`), so it syncs and leaves with the place, and names who
/// wrote it (`authorID`): only the author edits or deletes it.
public struct PlaceComment: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let placeID: Int
    public let authorID: Int
    public var body: String
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, placeID: Int, authorID: Int, body: String, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.placeID = placeID
        self.authorID = authorID
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Changed after it was written: lists say "edited".
    public var isEdited: Bool { updatedAt > createdAt }
}

/// A comment as typed.
public struct PlaceCommentDraft: Sendable {
    public var body: String?

    public init(body: String? = nil) {
        self.body = body
    }

    public static let maximumBodyLength = 10_000

    public static let fieldLabels: [String: String] = ["place_id": "Place", "body": "Comment"]

    /// The trimmed text, line breaks kept inside it.
    public func validated() throws(ValidationFailure) -> String {
        var check = FieldChecker()
        guard let body = check.text(body, field: "body", label: "Comment", limit: Self.maximumBodyLength) else {
            check.fail("body", "Write the comment.")
            throw ValidationFailure(check.errors)
        }
        return try check.finish(body)
    }
}
