import LocifyAPI
import Vapor

extension SyncedType {
    /// A conversation travels with its messages; a message's change is a change of its conversation.
    static let conversation = SyncedType(ConversationsTable.self, writes: .conversation) { request, ids in
        let conversations = try await request.conversations().conversations(ids)
        return byID(try await request.conversationResources(conversations), id: \.id, as: SyncRecord.conversation)
    }
}

extension SyncWrites {
    /// Conversations themselves (when and how); their messages go through the message routes.
    static let conversation = ConversationsAPIController.records.syncWrites(
        fields: ["contact_id", "happened_at", "contact_field_type_id"])
}

extension OfflinePages {
    static let conversation = onContactPage(SyncedType.conversation.name)
}
