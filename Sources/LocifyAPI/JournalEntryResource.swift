import Foundation
import LocifyCore

/// Monica's journal entry: `date` is when it was written (Monica's `created_at`).
public struct JournalEntryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "entry"
    public var title: String
    public var post: String
    public var date: String
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, title, post, date, url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ entry: JournalEntry, url: String) {
        id = entry.id
        uuid = entry.uuid.lowercasedText
        title = entry.fields.title
        post = entry.fields.post
        date = Timestamp.string(entry.createdAt)
        self.url = url
        account = AccountReference(id: entry.ownerID)
        createdAt = Timestamp.string(entry.createdAt)
        updatedAt = Timestamp.string(entry.updatedAt)
    }
}

/// The body of the journal routes, read leniently like `ContactInput`.
public struct JournalEntryInput: Decodable, Sendable {
    public private(set) var draft = JournalEntryDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: JournalEntryDraft, presentKeys: Set<String>) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: JournalEntryDraft.fieldLabels)
        draft.title = reader.string("title")
        draft.post = reader.string("post")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: Monica asks for both again; Locify keeps what is left out.
    public func merged(into existing: JournalEntryDraft) -> JournalEntryDraft {
        var result = existing
        if presentKeys.contains("title") { result.title = draft.title }
        if presentKeys.contains("post") { result.post = draft.post }
        return result
    }
}
