import Foundation

/// One message of a conversation.
public struct ConversationMessage: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public var content: String
    public var writtenAt: Date
    /// True when the owner wrote it; false when the contact did.
    public var writtenByMe: Bool
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, content: String, writtenAt: Date, writtenByMe: Bool, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.content = content
        self.writtenAt = writtenAt
        self.writtenByMe = writtenByMe
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A conversation with a contact by one means (a kind of contact field: a phone, WhatsApp, e-mail), with
/// its messages in the order they were written.
public struct Conversation: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public var happenedAt: Date
    /// One of the owner's contact field kinds; it may have been deleted since.
    public var fieldTypeID: Int
    public var messages: [ConversationMessage]
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, happenedAt: Date, fieldTypeID: Int,
        messages: [ConversationMessage] = [], createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.happenedAt = happenedAt
        self.fieldTypeID = fieldTypeID
        self.messages = messages
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A conversation as typed: when (any date or date-time) and by which means.
public struct ConversationDraft: Sendable {
    public var happenedAt: String?
    public var fieldTypeID: Int?

    public init(happenedAt: String? = nil, fieldTypeID: Int? = nil) {
        self.happenedAt = happenedAt
        self.fieldTypeID = fieldTypeID
    }

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "happened_at": "Date", "contact_field_type_id": "How you talked",
    ]

    /// The moment and the kind id; whether the kind is the owner's is the service's to ask.
    public func validated() throws(ValidationFailure) -> (happenedAt: Date, fieldTypeID: Int) {
        var check = FieldChecker()
        var moment: Date?
        if let text = happenedAt?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            moment = MomentText.date(from: text)
            if moment == nil { check.fail("happened_at", "The date of the conversation is not a valid date.") }
        } else {
            check.fail("happened_at", "The date of the conversation is required.")
        }
        if fieldTypeID == nil { check.fail("contact_field_type_id", "Choose how you talked.") }
        guard let moment, let fieldTypeID else { throw ValidationFailure(check.errors) }
        return try check.finish((moment, fieldTypeID))
    }
}

/// A message as typed.
public struct ConversationMessageDraft: Sendable {
    public var content: String?
    public var writtenAt: String?
    public var writtenByMe: Bool?

    public init(content: String? = nil, writtenAt: String? = nil, writtenByMe: Bool? = nil) {
        self.content = content
        self.writtenAt = writtenAt
        self.writtenByMe = writtenByMe
    }

    public init(_ message: ConversationMessage) {
        self.init(
            content: message.content, writtenAt: Timestamp.string(message.writtenAt), writtenByMe: message.writtenByMe)
    }

    public static let maximumContentLength = 100_000

    public static let fieldLabels: [String: String] = [
        "content": "Message", "written_at": "Written", "written_by_me": "Written by me",
    ]

    /// A message's content, moment and author, checked.
    public typealias Checked = (content: String, writtenAt: Date, writtenByMe: Bool)

    public func validated() throws(ValidationFailure) -> Checked {
        var check = FieldChecker()
        let content = check.text(content, field: "content", label: "The message", limit: Self.maximumContentLength)
        if content == nil { check.fail("content", "The message is required.") }
        var moment: Date?
        if let text = writtenAt?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            moment = MomentText.date(from: text)
            if moment == nil { check.fail("written_at", "When the message was written is not a valid date.") }
        } else {
            check.fail("written_at", "When the message was written is required.")
        }
        if writtenByMe == nil { check.fail("written_by_me", "Say who wrote the message (written_by_me).") }
        guard let content, let moment, let writtenByMe else { throw ValidationFailure(check.errors) }
        return try check.finish((content, moment, writtenByMe))
    }
}
