import LocifyAPI
import LocifyCore
import Vapor

/// `/api/conversations`, `/api/contacts/{id}/conversations` and a conversation's messages. A
/// conversation stays with its contact; an update changes when and how and keeps what it leaves out
/// (Monica requires both again).
struct ConversationsAPIController: RouteCollection {
    static let records = ContactRecordRoutes<
        ConversationsTable, TimestampSortField, Conversation, ConversationInput, ConversationResource
    >(
        list: ConversationPaths.api, record: ConversationPaths.apiConversation, recordID: .conversationID,
        contactList: ConversationPaths.apiContactConversations, bodyLimit: nil,
        defaultSort: ConversationService.defaultSort, emptyInput: { ConversationInput() }, contactID: \.contactID,
        id: \.id,
        page: { request, contactID, query in
            try await request.conversations().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.conversations().conversation(id) },
        create: { request, contactID, input, uuid in
            try await request.conversations().create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.conversations().update(
                id, happenedAt: input.happenedAtChange, fieldTypeID: input.fieldTypeChange,
                typeErrors: input.typeErrors.filter { $0.field != "contact_id" })
        },
        delete: { request, id in try await request.conversations().delete(id) },
        resources: { request, conversations in try await request.conversationResources(conversations) })

    func boot(routes: any RoutesBuilder) throws {
        try Self.records.boot(routes: routes)
        routes.on(.POST, ConversationPaths.apiMessages, limit: .longText, use: addMessage)
        routes.on(.PUT, ConversationPaths.apiMessage, limit: .longText, use: updateMessage)
        routes.delete(ConversationPaths.apiMessage, use: deleteMessage)
    }

    /// Answers the whole conversation with its new message, as Monica does (200: the conversation is not new).
    func addMessage(request: Request) async throws -> DataEnvelope<ConversationResource> {
        let input = try request.jsonInput(MessageInput.self, empty: MessageInput())
        let conversation = try await request.conversations().addMessage(
            to: try request.pathID(.conversationID), input.draft, typeErrors: input.typeErrors)
        return DataEnvelope(data: try await request.conversationResource(conversation))
    }

    func updateMessage(request: Request) async throws -> DataEnvelope<ConversationResource> {
        let input = try request.jsonInput(MessageInput.self, empty: MessageInput())
        let conversation = try await request.conversations().updateMessage(
            try request.pathID(.messageID), of: try request.pathID(.conversationID), typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.conversationResource(conversation))
    }

    func deleteMessage(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.messageID)
        try await request.conversations().deleteMessage(id, of: try request.pathID(.conversationID))
        return DeletedResource(id: id)
    }
}
