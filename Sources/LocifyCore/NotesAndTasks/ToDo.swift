import Foundation

/// A small thing to do, checked: Monica's task (named so beside Swift's `Task`).
public struct ToDoFields: Equatable, Sendable {
    public var title: String
    public var description: String?
    public var isCompleted: Bool

    public init(title: String, description: String?, isCompleted: Bool) {
        self.title = title
        self.description = description
        self.isCompleted = isCompleted
    }
}

/// A stored task of the owner, about one of their contacts or about no one.
public struct ToDo: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int?
    public var fields: ToDoFields
    public var completedAt: Date?
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int?, fields: ToDoFields, completedAt: Date?, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.fields = fields
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A task as typed.
public struct ToDoDraft: Sendable {
    public var title: String?
    public var description: String?
    public var isCompleted: Bool?

    public init(title: String? = nil, description: String? = nil, isCompleted: Bool? = nil) {
        self.title = title
        self.description = description
        self.isCompleted = isCompleted
    }

    public init(_ fields: ToDoFields) {
        self.init(title: fields.title, description: fields.description, isCompleted: fields.isCompleted)
    }

    public static let maximumTitleLength = 255
    public static let maximumDescriptionLength = 10_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "title": "Title", "description": "Description", "completed": "Done",
    ]

    public func validated() throws(ValidationFailure) -> ToDoFields {
        var check = FieldChecker()
        let title = check.text(title, field: "title", label: "Title", limit: Self.maximumTitleLength)
        if title == nil { check.fail("title", "Title is required.") }
        let description = check.text(
            description, field: "description", label: "Description", limit: Self.maximumDescriptionLength)
        guard let title else { throw ValidationFailure(check.errors) }
        return try check.finish(ToDoFields(title: title, description: description, isCompleted: isCompleted ?? false))
    }
}
