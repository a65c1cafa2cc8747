import LocifyAPI
import LocifyCore
import Vapor

/// `/api/conversations`, their messages, and `/api/contacts/{id}/conversations`.
struct ConversationsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ConversationPaths.api, use: index)
        routes.post(ConversationPaths.api, use: create)
        routes.get(ConversationPaths.apiConversation, use: show)
        routes.put(ConversationPaths.apiConversation, use: update)
        routes.delete(ConversationPaths.apiConversation, use: delete)
        routes.get(ConversationPaths.apiContactConversations, use: indexOfContact)
        routes.post(ConversationPaths.apiContactConversations, use: createForContact)
        routes.on(.POST, ConversationPaths.apiMessages, limit: .longText, use: addMessage)
        routes.on(.PUT, ConversationPaths.apiMessage, limit: .longText, use: updateMessage)
        routes.delete(ConversationPaths.apiMessage, use: deleteMessage)
    }

    func index(request: Request) async throws -> PageResource<ConversationResource> {
        try await page(request, contactID: try request.contactFilter(), path: ConversationPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<ConversationResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: ConversationPaths.apiContactConversations(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        ConversationResource
    > {
        let query = try ListQuery(from: request, defaultSort: ConversationService.defaultSort)
        let (found, window) = try await request.conversations().page(
            contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.conversationResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<ConversationResource> {
        let conversation = try await request.conversations().conversation(try request.pathID(.conversationID))
        return DataEnvelope(data: try await request.conversationResource(conversation))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(ConversationInput.self, empty: ConversationInput())
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/conversations` (Monica answers 405; clients call it): the path names the
    /// contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let input = try request.jsonInput(ConversationInput.self, empty: ConversationInput())
        return try await created(request, input: input, contactID: contactID)
    }

    private func created(_ request: Request, input: ConversationInput, contactID: Int?) async throws -> Response {
        let conversations = try request.conversations()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ConversationsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.conversationResource(try await conversations.conversation($0)))
        } create: {
            let conversation = try await conversations.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.conversationResource(conversation))
        }
    }

    /// When and how; what is left out is kept (Monica requires both again), and a conversation stays with
    /// its contact.
    func update(request: Request) async throws -> DataEnvelope<ConversationResource> {
        let input = try request.jsonInput(ConversationInput.self, empty: ConversationInput())
        let conversation = try await request.conversations().update(
            try request.pathID(.conversationID), happenedAt: input.happenedAtChange, fieldTypeID: input.fieldTypeChange,
            typeErrors: input.typeErrors.filter { $0.field != "contact_id" })
        return DataEnvelope(data: try await request.conversationResource(conversation))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.conversationID)
        try await request.conversations().delete(id)
        return DeletedResource(id: id)
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
