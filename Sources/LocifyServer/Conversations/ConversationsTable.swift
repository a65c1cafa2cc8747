import Foundation
import LocifyCore

/// Conversations with a contact; a contact's conversations go with it, and a conversation's messages
/// with it.
enum ConversationsTable: StoredTable {
    static let name = "conversations"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case happenedAt = "happened_at"
        /// One of the owner's contact field kinds; no foreign key: a deleted kind reads as none.
        case fieldType = "contact_field_type_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`); a change to one of its messages is one too.
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "conversation", revision: .revision, uuid: .uuid)

    /// The columns `conversation(from:)` reads.
    static let conversationColumns = selection(Column.allCases.filter { $0 != .revision })

    /// The conversation without its messages.
    static func conversation(from row: PlainRow) throws -> Conversation {
        Conversation(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), happenedAt: try row.requiredDate(4),
            fieldTypeID: try row.requiredInteger(5), createdAt: try row.requiredDate(6),
            updatedAt: try row.requiredDate(7))
    }
}

/// The messages of conversations. They travel inside their conversation (the sync feed's `conversation`
/// record carries them), so a message's change is a change of its conversation.
enum ConversationMessagesTable: StoredTable {
    static let name = "conversation_messages"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case conversation = "conversation_id"
        case content
        case writtenAt = "written_at"
        case writtenByMe = "written_by_me"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    static let messageColumns = selection(Column.allCases)

    static func message(from row: PlainRow) throws -> (conversationID: Int, message: ConversationMessage) {
        (
            try row.requiredInteger(3),
            ConversationMessage(
                id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), content: try row.requiredText(4),
                writtenAt: try row.requiredDate(5), writtenByMe: try row.requiredBool(6),
                createdAt: try row.requiredDate(7), updatedAt: try row.requiredDate(8))
        )
    }
}
