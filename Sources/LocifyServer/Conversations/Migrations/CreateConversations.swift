import Fluent

struct CreateConversations: AsyncMigration {
    static let indexes: [(name: String, columns: [ConversationsTable.Column])] = [
        ("conversations_list", [.owner, .id]),
        ("conversations_by_contact", [.contact, .id]),
        ("conversations_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(ConversationsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(ConversationsTable.Column.happenedAt, .datetime, .required)
            .field(ConversationsTable.Column.fieldType, .int, .required)
            .timestamps()
            .field(ConversationsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: ConversationsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: ConversationsTable.self)
        try await database.schema(ConversationMessagesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(
                ConversationMessagesTable.Column.conversation, .int, .required,
                .references(ConversationsTable.name, "id", onDelete: .cascade)
            )
            .field(ConversationMessagesTable.Column.content, .string, .required)
            .field(ConversationMessagesTable.Column.writtenAt, .datetime, .required)
            .field(ConversationMessagesTable.Column.writtenByMe, .bool, .required)
            .timestamps()
            .unique(on: ConversationMessagesTable.Column.uuid)
            .create()
        try await database.createIndexes(
            [("conversation_messages_by_conversation", [.conversation, .writtenAt])], on: ConversationMessagesTable.self
        )
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ConversationMessagesTable.name).delete()
        try await database.schema(ConversationsTable.name).delete()
    }
}
