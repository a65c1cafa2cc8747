import Fluent
import Foundation
import LocifyCore
import SQLKit

/// A note row. Persistence only: the domain works with `Note`, the API with `NoteResource`.
final class NoteModel: OwnedModel, @unchecked Sendable {
    static let schema = "notes"
    static let ownerKey: KeyPath<NoteModel, ParentProperty<NoteModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Parent(key: "contact_id") var contact: ContactModel
    @Field(key: "body") var body: String
    @Field(key: "is_favorited") var isFavorited: Bool
    @OptionalField(key: "favorited_at") var favoritedAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int, uuid: UUID, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.isFavorited = false
        self.createdAt = now
        self.updatedAt = now
    }

    func apply(_ fields: NoteFields, now: Date) {
        body = fields.body
        favoritedAt = LocifyCore.Timestamp.since(favoritedAt, holding: fields.isFavorited, now: now)
        isFavorited = fields.isFavorited
        updatedAt = now
    }

    var fields: NoteFields { NoteFields(body: body, isFavorited: isFavorited) }

    func value() throws -> Note {
        Note(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, contactID: $contact.id, fields: fields,
            favoritedAt: favoritedAt, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// A task row (`tasks`); the domain calls it `ToDo`, the API `TaskResource`.
final class TaskModel: OwnedModel, @unchecked Sendable {
    static let schema = "tasks"
    static let ownerKey: KeyPath<TaskModel, ParentProperty<TaskModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @OptionalParent(key: "contact_id") var contact: ContactModel?
    @Field(key: "title") var title: String
    @OptionalField(key: "description") var description: String?
    @Field(key: "is_completed") var isCompleted: Bool
    @OptionalField(key: "completed_at") var completedAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int?, uuid: UUID, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.isCompleted = false
        self.createdAt = now
        self.updatedAt = now
    }

    func apply(_ fields: ToDoFields, now: Date) {
        title = fields.title
        description = fields.description
        completedAt = LocifyCore.Timestamp.since(completedAt, holding: fields.isCompleted, now: now)
        isCompleted = fields.isCompleted
        updatedAt = now
    }

    var fields: ToDoFields { ToDoFields(title: title, description: description, isCompleted: isCompleted) }

    func value() throws -> ToDo {
        ToDo(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, contactID: $contact.id, fields: fields,
            completedAt: completedAt, createdAt: createdAt, updatedAt: updatedAt)
    }
}

struct CreateNotes: AsyncMigration {
    static let indexes: [(name: String, columns: [String])] = [
        ("notes_list_by_created", ["user_id", "created_at", "id"]),
        ("notes_by_contact", ["contact_id", "created_at", "id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(NoteModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("body", .string, .required)
            .field("is_favorited", .bool, .required)
            .field("favorited_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: NoteModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NoteModel.schema).delete()
    }
}

struct CreateTasks: AsyncMigration {
    static let indexes: [(name: String, columns: [String])] = [
        ("tasks_list_by_created", ["user_id", "created_at", "id"]),
        ("tasks_by_contact", ["contact_id", "id"]),
        ("tasks_open", ["user_id", "is_completed", "created_at"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(TaskModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("title", .string, .required)
            .field("description", .string)
            .field("is_completed", .bool, .required)
            .field("completed_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: TaskModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TaskModel.schema).delete()
    }
}

/// The read path of notes and tasks (the pattern of `ReminderRows`): plain SQL, rows read by position.
enum NotesAndTasksRows {
    static let noteColumns = [
        "id", "uuid", "user_id", "contact_id", "body", "is_favorited", "favorited_at", "created_at", "updated_at",
    ]
    static let noteColumnList = SQLQueryString.columnList(noteColumns)

    static func note(from row: PlainRow) throws -> Note {
        Note(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: NoteFields(body: try row.requiredText(4), isFavorited: try row.requiredBool(5)),
            favoritedAt: try row.date(6), createdAt: try row.requiredDate(7), updatedAt: try row.requiredDate(8))
    }

    static let taskColumns = [
        "id", "uuid", "user_id", "contact_id", "title", "description", "is_completed", "completed_at", "created_at",
        "updated_at",
    ]
    static let taskColumnList = SQLQueryString.columnList(taskColumns)

    static func task(from row: PlainRow) throws -> ToDo {
        ToDo(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.integer(3),
            fields: ToDoFields(
                title: try row.requiredText(4), description: try row.text(5), isCompleted: try row.requiredBool(6)),
            completedAt: try row.date(7), createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }
}
