import Foundation
import LocifyCore

/// Monica's task, with Locify's `contact_id` after its keys.
public struct TaskResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "task"
    public var title: String
    @Nullable public var description: String?
    public var completed: Bool
    @Nullable public var completedAt: String?
    public var account: AccountReference
    @Nullable public var contact: ContactShortResource?
    public var createdAt: String
    public var updatedAt: String
    @Nullable public var contactID: Int?

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, title, description, completed
        case completedAt = "completed_at"
        case account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ task: ToDo, contact: ContactShortResource?) {
        id = task.id
        uuid = task.uuid.lowercasedText
        title = task.fields.title
        description = task.fields.description
        completed = task.fields.isCompleted
        completedAt = task.completedAt.map(Timestamp.string)
        account = AccountReference(id: task.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(task.createdAt)
        updatedAt = Timestamp.string(task.updatedAt)
        contactID = task.contactID
    }
}

/// The body of the task routes, read leniently like `ContactInput`.
public struct TaskInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = ToDoDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: ToDoDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ToDoDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.title = reader.string("title")
        draft.description = reader.string("description")
        draft.isCompleted = reader.boolean("completed")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores. A left-out description is kept
    /// (Monica wiped it), and so is a left-out `completed` (a tick sends only that).
    public func merged(into existing: ToDoDraft) -> ToDoDraft {
        var result = existing
        if presentKeys.contains("title") { result.title = draft.title }
        if presentKeys.contains("description") { result.description = draft.description }
        if let completed = draft.isCompleted { result.isCompleted = completed }
        return result
    }
}
