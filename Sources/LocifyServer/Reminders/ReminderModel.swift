import Fluent
import Foundation
import LocifyCore

/// A reminder row. Persistence only: the domain works with `Reminder`, the API with `ReminderResource`.
final class ReminderModel: OwnedModel, @unchecked Sendable {
    static let schema = "reminders"
    static let ownerKey: KeyPath<ReminderModel, ParentProperty<ReminderModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Parent(key: "contact_id") var contact: ContactModel
    @Field(key: "title") var title: String
    @OptionalField(key: "description") var description: String?
    /// A calendar date, `YYYY-MM-DD`: no time, no zone.
    @Field(key: "initial_date") var initialDate: String
    @Field(key: "frequency_type") var frequencyType: String
    @Field(key: "frequency_number") var frequencyNumber: Int
    @Field(key: "is_delible") var isDelible: Bool
    @OptionalField(key: "done_at") var doneAt: Date?
    /// `birthday` for the reminder that follows its contact's birthday; nil for the others.
    @OptionalField(key: "kind") var kind: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int, uuid: UUID, isDelible: Bool, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.isDelible = isDelible
        self.createdAt = now
        self.updatedAt = now
    }

    func apply(_ fields: ReminderFields, now: Date) {
        title = fields.title
        description = fields.description
        initialDate = fields.schedule.initialDate.description
        frequencyType = fields.schedule.recurrence.frequencyType
        frequencyNumber = fields.schedule.recurrence.frequencyNumber
        updatedAt = now
    }

    var fields: ReminderFields {
        get throws {
            let id = try requireID()
            return ReminderFields(
                title: title, description: description,
                schedule: try ReminderRows.schedule(
                    id: id, initialDate: initialDate, frequencyType: frequencyType, frequencyNumber: frequencyNumber))
        }
    }

    func value() throws -> Reminder {
        Reminder(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, contactID: $contact.id, fields: try fields,
            isDelible: isDelible, doneAt: doneAt, createdAt: createdAt, updatedAt: updatedAt)
    }
}

struct CreateReminders: AsyncMigration {
    static let indexes: [(name: String, columns: [String])] = [
        ("reminders_list_by_created", ["user_id", "created_at", "id"]),
        ("reminders_list_by_updated", ["user_id", "updated_at", "id"]),
        ("reminders_by_contact", ["contact_id", "id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("title", .string, .required)
            .field("description", .string)
            .field("initial_date", .string, .required)
            .field("frequency_type", .string, .required)
            .field("frequency_number", .int, .required)
            .field("is_delible", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: ReminderModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).delete()
    }
}

/// One-time reminders can be marked done.
struct AddReminderDone: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).field("done_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).deleteField("done_at").update()
    }
}

/// Birthday reminders are told apart from the others, so they can follow the birthday.
struct AddReminderKind: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).field("kind", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).deleteField("kind").update()
    }
}
