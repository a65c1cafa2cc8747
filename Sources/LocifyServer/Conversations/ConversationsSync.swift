import LocifyAPI
import LocifyCore
import Vapor

extension SyncedType {
    /// A conversation travels with its messages; a message's change is a change of its conversation.
    static let conversation = SyncedType(ConversationsTable.self, writes: .conversation, restore: .conversation) {
        request, ids in
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

extension ArchiveRestore {
    /// A conversation comes back with its messages, in their order.
    static let conversation = ArchiveRestore { request, record, uuid, ids in
        let fields = try record.fields(
            ["happened_at"], references: ["contact_id": "contact", "contact_field_type_id": "contactfieldtype"],
            ids: ids)
        let id = try await SyncWrites.conversation.create(request, uuid, try OrderedJSONEncoder().encode(fields))
        guard case .array(let messages) = record["messages"] else { return id }
        let conversations = try request.conversations()
        let ownerID = try request.requireUser().id
        var known: Set<Int> = []
        for message in messages.compactMap(\.object) {
            var draft = ConversationMessageDraft()
            if case .string(let content) = message["content"] ?? .null { draft.content = content }
            if case .string(let writtenAt) = message["written_at"] ?? .null { draft.writtenAt = writtenAt }
            if case .bool(let byMe) = message["written_by_me"] ?? .null { draft.writtenByMe = byMe }
            let conversation = try await conversations.addMessage(to: id, draft)
            guard let added = conversation.messages.first(where: { !known.contains($0.id) }) else { continue }
            known = Set(conversation.messages.map(\.id))
            // A message keeps the times it had, as its conversation does.
            var times: ConversationMessagesTable.Values = [:]
            for (column, key) in [
                (ConversationMessagesTable.Column.createdAt, "created_at"), (.updatedAt, "updated_at"),
            ] {
                if case .string(let text) = message[key] ?? .null, let date = try? Date(text, strategy: .iso8601) {
                    times[column] = date
                }
            }
            try await TableWriter(ConversationMessagesTable.self, on: request.database)
                .update(added.id, ownedBy: ownerID, set: times)
        }
        return id
    }
}
