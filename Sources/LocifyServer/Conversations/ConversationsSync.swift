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
    static let conversation = SyncWrites(
        reading: ConversationInput.self, fields: ["contact_id", "happened_at", "contact_field_type_id"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.conversations().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.conversations().update(
                id, happenedAt: input.happenedAtChange, fieldTypeID: input.fieldTypeChange,
                typeErrors: input.typeErrors.filter { $0.field != "contact_id" })
        },
        delete: { request, id, _ in try await request.conversations().delete(id) })
}

extension OfflinePages {
    static let conversation = onContactPage(SyncedType.conversation.name)
}
