import Foundation
import LocifyCore

/// Monica's message, inside its conversation, with `uuid` as Locify's other records have it.
public struct MessageResource: Codable, Sendable, Equatable {
    public struct ConversationReference: Codable, Sendable, Equatable {
        public var id: Int
    }

    public var id: Int
    public var uuid: String
    public var object = "message"
    public var content: String
    public var writtenAt: String
    public var writtenByMe: Bool
    public var account: AccountReference
    public var contact: ContactShortResource
    public var conversation: ConversationReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, content
        case writtenAt = "written_at"
        case writtenByMe = "written_by_me"
        case account, contact, conversation
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ message: ConversationMessage, of conversation: Conversation, contact: ContactShortResource) {
        id = message.id
        uuid = message.uuid.lowercasedText
        content = message.content
        writtenAt = Timestamp.string(message.writtenAt)
        writtenByMe = message.writtenByMe
        account = AccountReference(id: conversation.ownerID)
        self.contact = contact
        self.conversation = ConversationReference(id: conversation.id)
        createdAt = Timestamp.string(message.createdAt)
        updatedAt = Timestamp.string(message.updatedAt)
    }
}

/// Monica's conversation with its messages, with `contact_id` after its keys. `contact_field_type` is
/// null once the kind it was held by is deleted.
public struct ConversationResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "conversation"
    public var happenedAt: String
    public var messages: [MessageResource]
    @Nullable public var contactFieldType: ContactFieldTypeResource?
    public var url: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case happenedAt = "happened_at"
        case messages
        case contactFieldType = "contact_field_type"
        case url, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(
        _ conversation: Conversation, url: String, fieldType: ContactFieldType?, contact: ContactShortResource
    ) {
        id = conversation.id
        uuid = conversation.uuid.lowercasedText
        happenedAt = Timestamp.string(conversation.happenedAt)
        messages = conversation.messages.map { MessageResource($0, of: conversation, contact: contact) }
        contactFieldType = fieldType.map(ContactFieldTypeResource.init)
        self.url = url
        account = AccountReference(id: conversation.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(conversation.createdAt)
        updatedAt = Timestamp.string(conversation.updatedAt)
        contactID = conversation.contactID
    }
}

/// The body of the conversation routes, read leniently like `ContactInput`. On update a key left out
/// keeps its value (`.none`).
public struct ConversationInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = ConversationDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ConversationDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.happenedAt = reader.string("happened_at")
        draft.fieldTypeID = reader.integer("contact_field_type_id")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// What an update sets: a value, or `.none` for a key left out.
    public var happenedAtChange: String?? { presentKeys.contains("happened_at") ? .some(draft.happenedAt) : .none }
    public var fieldTypeChange: Int?? {
        presentKeys.contains("contact_field_type_id") ? .some(draft.fieldTypeID) : .none
    }
}

/// The body of the message routes.
public struct MessageInput: Decodable, Sendable {
    public private(set) var draft = ConversationMessageDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ConversationMessageDraft.fieldLabels)
        draft.content = reader.string("content")
        draft.writtenAt = reader.string("written_at")
        draft.writtenByMe = reader.boolean("written_by_me")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied.
    public func merged(into existing: ConversationMessageDraft) -> ConversationMessageDraft {
        var result = existing
        if presentKeys.contains("content") { result.content = draft.content }
        if presentKeys.contains("written_at") { result.writtenAt = draft.writtenAt }
        if presentKeys.contains("written_by_me") { result.writtenByMe = draft.writtenByMe }
        return result
    }
}
