import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let conversation = FormName("conversation")
    static let message = FormName("message")
}

/// One conversation as a contact page shows it, with its messages and a form for the next one.
struct ConversationLine: Encodable {
    struct MessageLine: Encodable {
        let author: String
        let when: String
        let content: String
        let deleteURL: String
    }

    let id: Int
    let heading: String
    let messages: [MessageLine]
    let messageURL: String
    let messageField: FormField
    let authorField: FormField
    let editURL: String
    let kindField: FormField
    let dateField: FormField
    let isEditing: Bool
    let deleteURL: String

    /// `kinds` are the account's contact field kinds, in the order a form offers them.
    init(_ conversation: Conversation, contact: Contact, kinds: [ContactFieldType], problem: FormProblem?) {
        id = conversation.id
        let when = MomentText.dayAndTime(conversation.happenedAt)
        heading = kinds.first { $0.id == conversation.fieldTypeID }.map { "\(when) · by \($0.name)" } ?? when
        messages = conversation.messages.map {
            MessageLine(
                author: $0.writtenByMe ? "You" : contact.fields.firstName, when: MomentText.dayAndTime($0.writtenAt),
                content: $0.content, deleteURL: ConversationPaths.deleteMessage(conversation.id, $0.id).path)
        }
        editURL = ConversationPaths.conversation(conversation.id).path
        let editError = problem?.message(for: .conversation, item: conversation.id)
        isEditing = editError != nil
        kindField = Self.kindField(
            kinds: kinds,
            chosen: problem?.typed("contact_field_type_id", in: .conversation, item: conversation.id)
                ?? String(conversation.fieldTypeID),
            error: editError
        ).identified(as: "conversation-\(conversation.id)-kind")
        dateField = Self.dateField(
            problem?.typed("happened_on", in: .conversation, item: conversation.id)
                ?? CalendarDate(conversation.happenedAt, in: .gmt).description
        ).identified(as: "conversation-\(conversation.id)-day")
        messageURL = ConversationPaths.messages(conversation.id).path
        let error = problem?.message(for: .message, item: conversation.id)
        messageField = FormField(
            "content", label: "Message", control: .textarea,
            value: problem?.typed("content", in: .message, item: conversation.id), error: error, isRequired: true,
            maxLength: ConversationMessageDraft.maximumContentLength, rows: 2
        ).identified(as: "message-\(conversation.id)-content")
        authorField = ConversationLine.authorField(
            contact: contact, chosen: problem?.typed("written_by_me", in: .message, item: conversation.id)
        ).identified(as: "message-\(conversation.id)-author")
        deleteURL = ConversationPaths.delete(conversation.id).path
    }

    /// How the conversation went: one of the account's contact field kinds.
    static func kindField(kinds: [ContactFieldType], chosen: String, error: String?) -> FormField {
        FormField(
            "contact_field_type_id", label: "How", control: .select, error: error, isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + kinds.map { SelectOption(value: String($0.id), label: $0.name, isSelected: String($0.id) == chosen) })
    }

    static func dateField(_ value: String) -> FormField {
        FormField("happened_on", label: "Day", control: .date, value: value, isRequired: true)
    }

    /// Who wrote a message: the owner or the contact.
    static func authorField(contact: Contact, chosen: String?) -> FormField {
        let mine = chosen ?? "1"
        return FormField(
            "written_by_me", label: "Written by", control: .select,
            options: [
                SelectOption(value: "1", label: "Me", isSelected: mine == "1"),
                SelectOption(value: "0", label: contact.fields.firstName, isSelected: mine == "0"),
            ])
    }
}

/// The contact page's conversations, newest first, and the form that starts one with its first message.
struct ContactConversationsSection: Encodable {
    static let shownOnPage = 20

    let items: [ConversationLine]
    let addURL: String
    let kindField: FormField
    let dateField: FormField
    let messageField: FormField
    let authorField: FormField
    let isAdding: Bool

    init(
        contact: Contact, conversations: [Conversation], kinds: [ContactFieldType], today: CalendarDate,
        problem: FormProblem?
    ) {
        items = conversations.sorted { ($0.happenedAt, $0.id) > ($1.happenedAt, $1.id) }.map {
            ConversationLine($0, contact: contact, kinds: kinds, problem: problem)
        }
        addURL = ConversationPaths.contactConversations(contact.id).path
        let error = problem?.message(for: .conversation)
        isAdding = error != nil
        kindField = ConversationLine.kindField(
            kinds: kinds, chosen: problem?.typed("contact_field_type_id", in: .conversation) ?? "", error: error
        ).identified(as: "new-conversation-kind")
        dateField = ConversationLine.dateField(
            problem?.typed("happened_on", in: .conversation) ?? today.description
        ).identified(as: "new-conversation-day")
        messageField = FormField(
            "content", label: "First message", control: .textarea,
            value: problem?.typed("content", in: .conversation), isRequired: true,
            maxLength: ConversationMessageDraft.maximumContentLength, rows: 2
        ).identified(as: "new-conversation-content")
        authorField = ConversationLine.authorField(
            contact: contact, chosen: problem?.typed("written_by_me", in: .conversation)
        ).identified(as: "new-conversation-author")
    }
}
