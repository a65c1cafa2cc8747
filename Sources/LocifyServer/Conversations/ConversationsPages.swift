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
    }

    let id: Int
    let heading: String
    let messages: [MessageLine]
    let messageURL: String
    let messageField: FormField
    let authorField: FormField
    let deleteURL: String

    init(_ conversation: Conversation, contact: Contact, kinds: [Int: ContactFieldType], problem: FormProblem?) {
        id = conversation.id
        let when = MomentText.dayAndTime(conversation.happenedAt)
        heading = kinds[conversation.fieldTypeID].map { "\(when) · by \($0.name)" } ?? when
        messages = conversation.messages.map {
            MessageLine(
                author: $0.writtenByMe ? "You" : contact.fields.firstName, when: MomentText.dayAndTime($0.writtenAt),
                content: $0.content)
        }
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
        let byID = Dictionary(uniqueKeysWithValues: kinds.map { ($0.id, $0) })
        items = conversations.sorted { ($0.happenedAt, $0.id) > ($1.happenedAt, $1.id) }.map {
            ConversationLine($0, contact: contact, kinds: byID, problem: problem)
        }
        addURL = ConversationPaths.contactConversations(contact.id).path
        let error = problem?.message(for: .conversation)
        isAdding = error != nil
        let chosen = problem?.typed("contact_field_type_id", in: .conversation) ?? ""
        kindField = FormField(
            "contact_field_type_id", label: "How", control: .select, error: error, isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + kinds.map { SelectOption(value: String($0.id), label: $0.name, isSelected: String($0.id) == chosen) }
        ).identified(as: "new-conversation-kind")
        dateField = FormField(
            "happened_on", label: "Day", control: .date,
            value: problem?.typed("happened_on", in: .conversation) ?? today.description, isRequired: true
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
