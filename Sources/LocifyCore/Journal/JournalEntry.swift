import Foundation

/// What a person wrote in their journal, checked: a title and the text, line breaks kept.
public struct JournalEntryFields: Equatable, Sendable {
    public var title: String
    public var post: String

    public init(title: String, post: String) {
        self.title = title
        self.post = post
    }
}

/// A stored journal entry of one account (Monica's `entry`), about no contact in particular.
public struct JournalEntry: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var fields: JournalEntryFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: Int, uuid: UUID, ownerID: Int, fields: JournalEntryFields, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A journal entry as typed.
public struct JournalEntryDraft: Sendable {
    public var title: String?
    public var post: String?

    public init(title: String? = nil, post: String? = nil) {
        self.title = title
        self.post = post
    }

    public init(_ fields: JournalEntryFields) {
        self.init(title: fields.title, post: fields.post)
    }

    public static let maximumTitleLength = 255
    public static let maximumPostLength = 1_000_000

    public static let fieldLabels: [String: String] = ["title": "Title", "post": "Entry"]

    public func validated() throws(ValidationFailure) -> JournalEntryFields {
        var check = FieldChecker()
        let title = check.text(title, field: "title", label: "Title", limit: Self.maximumTitleLength)
        if title == nil { check.fail("title", "Give the entry a title.") }
        let post = check.text(post, field: "post", label: "Entry", limit: Self.maximumPostLength)
        if post == nil { check.fail("post", "Write the entry.") }
        guard let title, let post else { throw ValidationFailure(check.errors) }
        return try check.finish(JournalEntryFields(title: title, post: post))
    }
}
