import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's conversations.
    func conversations() throws -> ConversationService {
        ConversationService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    func conversationResource(_ conversation: Conversation) async throws -> ConversationResource {
        try await conversationResources([conversation])[0]
    }

    /// Each conversation with its contact and its means, read in two queries.
    func conversationResources(_ conversations: [Conversation]) async throws -> [ConversationResource] {
        let base = baseURL
        let kinds = Dictionary(uniqueKeysWithValues: try await contactFields().types().map { ($0.id, $0) })
        return try await resources(conversations, contactOf: \.contactID) { conversation, contact in
            ConversationResource(
                conversation, url: base + ConversationPaths.apiConversation(conversation.id).path,
                fieldType: kinds[conversation.fieldTypeID], contact: contact)
        }
    }
}
