import LocifyCore
import Vapor

/// The contact page's conversations: start one with its first message, change when and how it went, add
/// or delete a message, delete one. All
/// work without scripts and go back to the contact's page; a refusal draws the page again with the
/// problem beside its form.
struct ConversationsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(ConversationPaths.contactConversations, use: startConversation)
        routes.post(ConversationPaths.conversation, use: editConversation)
        routes.post(ConversationPaths.messages, use: addMessage)
        routes.post(ConversationPaths.deleteMessage, use: deleteMessage)
        routes.post(ConversationPaths.delete, use: deleteConversation)
    }

    struct ConversationForm: Content {
        var kindID: String?
        var happenedOn: String?
        var content: String?
        var writtenByMe: String?

        enum CodingKeys: String, CodingKey {
            case kindID = "contact_field_type_id"
            case happenedOn = "happened_on"
            case content
            case writtenByMe = "written_by_me"
        }
    }

    func startConversation(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(ConversationForm.self)
        return try await request.handleContactForm(
            .conversation, contact: contactID,
            typed: [
                "contact_field_type_id": form.kindID, "happened_on": form.happenedOn, "content": form.content,
                "written_by_me": form.writtenByMe,
            ]
        ) {
            _ = try await request.conversations().create(
                contactID: contactID,
                ConversationDraft(
                    happenedAt: form.happenedOn,
                    fieldTypeID: form.kindID.flatMap(LooseValue.integer)),
                firstMessage: ConversationMessageDraft(
                    content: form.content, writtenAt: form.happenedOn, writtenByMe: form.writtenByMe != "0"))
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#conversations", flash: "The conversation was saved.")
        }
    }

    func editConversation(request: Request) async throws -> Response {
        let conversations = try request.conversations()
        let conversation = try await conversations.conversation(try request.pathID(.conversationID))
        let form = try request.content.decode(ConversationForm.self)
        return try await request.handleContactForm(
            .conversation, contact: conversation.contactID, item: conversation.id,
            typed: ["contact_field_type_id": form.kindID, "happened_on": form.happenedOn]
        ) {
            var problems: [FieldError] = []
            let kind = LooseValue.integer(
                form.kindID, field: "contact_field_type_id", label: "How", problems: &problems)
            _ = try await conversations.update(
                conversation.id, happenedAt: .some(form.happenedOn), fieldTypeID: .some(kind), typeErrors: problems)
            return .redirect(
                to: ContactPaths.contact(conversation.contactID).path + "#conversation-\(conversation.id)",
                flash: "The conversation was saved.")
        }
    }

    func deleteMessage(request: Request) async throws -> Response {
        let conversations = try request.conversations()
        let conversation = try await conversations.conversation(try request.pathID(.conversationID))
        try await conversations.deleteMessage(try request.pathID(.messageID), of: conversation.id)
        return request.redirect(
            to: ContactPaths.contact(conversation.contactID).path + "#conversation-\(conversation.id)",
            flash: "The message was deleted.")
    }

    struct MessageForm: Content {
        var content: String?
        var writtenByMe: String?

        enum CodingKeys: String, CodingKey {
            case content
            case writtenByMe = "written_by_me"
        }
    }

    func addMessage(request: Request) async throws -> Response {
        let conversations = try request.conversations()
        let conversation = try await conversations.conversation(try request.pathID(.conversationID))
        let form = try request.content.decode(MessageForm.self)
        let back = ContactPaths.contact(conversation.contactID).path + "#conversation-\(conversation.id)"
        return try await request.handleContactForm(
            .message, contact: conversation.contactID, item: conversation.id,
            typed: ["content": form.content, "written_by_me": form.writtenByMe]
        ) {
            _ = try await conversations.addMessage(
                to: conversation.id,
                ConversationMessageDraft(
                    content: form.content, writtenAt: Timestamp.string(request.dependencies.now()),
                    writtenByMe: form.writtenByMe != "0"))
            return .redirect(to: back, flash: "The message was added.")
        }
    }

    func deleteConversation(request: Request) async throws -> Response {
        let conversation = try await request.conversations().conversation(try request.pathID(.conversationID))
        try await request.conversations().delete(conversation.id)
        return request.redirect(
            to: ContactPaths.contact(conversation.contactID).path + "#conversations",
            flash: "The conversation was deleted.")
    }
}
