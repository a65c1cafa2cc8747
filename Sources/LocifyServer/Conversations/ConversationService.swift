import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Conversations of one owner with their messages. A message is written in its conversation's write and
/// stamps the conversation, so a client keeping conversations hears of every message.
struct ConversationService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = ConversationsTable.conversationColumns

    /// One page of the owner's conversations, of one contact when `contactID` is given, with their messages.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Conversation], PageWindow
    ) {
        let (found, window) = try await database.ownedChildPage(
            table: ConversationsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: ConversationsTable.conversation(from:))
        return (try await withMessages(found), window)
    }

    func conversation(_ id: Int) async throws -> Conversation {
        let found = try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: ConversationsTable.self, selecting: Self.columns,
            read: ConversationsTable.conversation(from:))
        return try await withMessages([found])[0]
    }

    /// The conversations among `ids` the owner has, by id, with their messages: for the sync feed.
    func conversations(_ ids: [Int]) async throws -> [Conversation] {
        let found = try await database.ownedRows(
            ids, ownedBy: ownerID, in: ConversationsTable.self, selecting: Self.columns,
            read: ConversationsTable.conversation(from:))
        return try await withMessages(found)
    }

    /// Each conversation's messages in the order they were written, read in one query.
    private func withMessages(_ conversations: [Conversation]) async throws -> [Conversation] {
        guard !conversations.isEmpty else { return [] }
        let rows = try await database.plainRows(
            """
            SELECT \(ConversationMessagesTable.messageColumns.list) FROM "conversation_messages" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: conversations.map(\.id), idColumn: "conversation_id")) \
            ORDER BY "written_at", "id"
            """, columns: ConversationMessagesTable.messageColumns.names)
        let messages = Dictionary(
            grouping: try rows.map(ConversationMessagesTable.message(from:)), by: \.conversationID)
        return conversations.map { conversation in
            var full = conversation
            full.messages = (messages[conversation.id] ?? []).map(\.message)
            return full
        }
    }

    /// Starts a conversation with one of the owner's contacts, by one of the owner's contact field kinds.
    /// `firstMessage`, when given, is written with it: a refusal of either saves neither.
    func create(
        contactID: Int?, _ draft: ConversationDraft, firstMessage: ConversationMessageDraft? = nil,
        typeErrors: [FieldError] = [], uuid: UUID? = nil
    ) async throws -> Conversation {
        let ((fields, message), contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "conversation", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in
            var problems: [FieldError] = []
            var fields: (happenedAt: Date, fieldTypeID: Int)?
            var message: ConversationMessageDraft.Checked?
            do throws(ValidationFailure) { fields = try draft.validated() } catch { problems += error.errors }
            if let firstMessage {
                do throws(ValidationFailure) { message = try firstMessage.validated() } catch {
                    problems += error.errors
                }
            }
            guard let fields, problems.isEmpty else { throw ValidationFailure(problems) }
            return (fields, message)
        }
        try await database.requireNewRecord(uuid, in: ConversationsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        try await requireFieldType(fields.fieldTypeID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let messageUUID = dependencies.newUUID()
        let id = try await database.write(ConversationsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            let id = try await table.insert([
                .uuid: uuid, .owner: ownerID, .contact: contactID, .happenedAt: fields.happenedAt,
                .fieldType: fields.fieldTypeID, .createdAt: now, .updatedAt: now,
            ])
            if let message {
                try await Self.insert(message, uuid: messageUUID, into: id, ownerID: ownerID, at: now, on: table)
            }
            return id
        }
        if message != nil { return try await conversation(id) }
        return Conversation(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, happenedAt: fields.happenedAt,
            fieldTypeID: fields.fieldTypeID, createdAt: now, updatedAt: now)
    }

    /// Changes when and how; a key left out keeps its value. A conversation stays with its contact.
    func update(_ id: Int, happenedAt: String??, fieldTypeID: Int??, typeErrors: [FieldError] = []) async throws
        -> Conversation
    {
        var stored = try await conversation(id)
        let draft = ConversationDraft(
            happenedAt: happenedAt ?? Timestamp.string(stored.happenedAt),
            fieldTypeID: fieldTypeID ?? stored.fieldTypeID)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        if fields.fieldTypeID != stored.fieldTypeID { try await requireFieldType(fields.fieldTypeID) }
        let now = dependencies.now()
        try await database.write(ConversationsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await table.update(
                id, ownedBy: ownerID,
                set: [.happenedAt: fields.happenedAt, .fieldType: fields.fieldTypeID, .updatedAt: now])
        }
        stored.happenedAt = fields.happenedAt
        stored.fieldTypeID = fields.fieldTypeID
        stored.updatedAt = now
        return stored
    }

    func delete(_ id: Int) async throws {
        try await database.write(ConversationsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] table in
            try await table.delete(id, ownedBy: ownerID)
        }
    }

    /// Adds a message; the conversation is stamped with it.
    func addMessage(to id: Int, _ draft: ConversationMessageDraft, typeErrors: [FieldError] = []) async throws
        -> Conversation
    {
        _ = try await conversation(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        let uuid = dependencies.newUUID()
        try await database.write(ConversationsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await Self.insert(fields, uuid: uuid, into: id, ownerID: ownerID, at: now, on: table)
            try await table.update(id, ownedBy: ownerID, set: [.updatedAt: now])
        }
        return try await conversation(id)
    }

    private static func insert(
        _ message: ConversationMessageDraft.Checked, uuid: UUID, into id: Int, ownerID: Int, at now: Date,
        on conversations: TableWriter<ConversationsTable>
    ) async throws {
        _ = try await TableWriter(ConversationMessagesTable.self, on: conversations.database).insert([
            .uuid: uuid, .owner: ownerID, .conversation: id, .content: message.content,
            .writtenAt: message.writtenAt, .writtenByMe: message.writtenByMe, .createdAt: now, .updatedAt: now,
        ])
    }

    /// Changes a message of the conversation; a key left out keeps its value.
    func updateMessage(
        _ messageID: Int, of id: Int, typeErrors: [FieldError] = [],
        _ change: (ConversationMessageDraft) -> ConversationMessageDraft
    ) async throws -> Conversation {
        let stored = try await conversation(id)
        guard let message = stored.messages.first(where: { $0.id == messageID }) else { throw AppError.notFound }
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(ConversationMessageDraft(message)).validated()
        }
        let now = dependencies.now()
        try await database.write(ConversationsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await TableWriter(ConversationMessagesTable.self, on: table.database).update(
                messageID, ownedBy: ownerID,
                set: [
                    .content: fields.content, .writtenAt: fields.writtenAt, .writtenByMe: fields.writtenByMe,
                    .updatedAt: now,
                ])
            try await table.update(id, ownedBy: ownerID, set: [.updatedAt: now])
        }
        return try await conversation(id)
    }

    func deleteMessage(_ messageID: Int, of id: Int) async throws {
        let stored = try await conversation(id)
        guard stored.messages.contains(where: { $0.id == messageID }) else { throw AppError.notFound }
        let now = dependencies.now()
        try await database.write(ConversationsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await TableWriter(ConversationMessagesTable.self, on: table.database).delete(
                messageID, ownedBy: ownerID)
            try await table.update(id, ownedBy: ownerID, set: [.updatedAt: now])
        }
    }

    private func requireFieldType(_ id: Int) async throws {
        _ = try await ContactFieldService(database: database, ownerID: ownerID, dependencies: dependencies).type(id)
    }
}
