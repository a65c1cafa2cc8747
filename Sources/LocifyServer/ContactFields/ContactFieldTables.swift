import Fluent
import Foundation
import LocifyCore
import SQLKit

/// A contact field type row of one account.
final class ContactFieldTypeModel: OwnedModel, @unchecked Sendable {
    static let schema = "contact_field_types"
    static let ownerKey: KeyPath<ContactFieldTypeModel, ParentProperty<ContactFieldTypeModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "name") var name: String
    @OptionalField(key: "fontawesome_icon") var icon: String?
    @OptionalField(key: "protocol") var linkProtocol: String?
    @Field(key: "delible") var isDelible: Bool
    @OptionalField(key: "type") var type: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, uuid: UUID, name: String, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.name = name
        self.isDelible = true
        self.createdAt = now
        self.updatedAt = now
    }

    func value() throws -> ContactFieldType {
        ContactFieldType(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, name: name, icon: icon, linkProtocol: linkProtocol,
            isDelible: isDelible, type: type, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// A contact field row; its labels are rows of `contact_field_labels`.
final class ContactFieldModel: OwnedModel, @unchecked Sendable {
    static let schema = "contact_fields"
    static let ownerKey: KeyPath<ContactFieldModel, ParentProperty<ContactFieldModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Parent(key: "contact_id") var contact: ContactModel
    @Field(key: "contact_field_type_id") var typeID: Int
    @Field(key: "data") var data: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int, typeID: Int, uuid: UUID, data: String, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.typeID = typeID
        self.data = data
        self.createdAt = now
        self.updatedAt = now
    }
}

/// Contacts' phone numbers, e-mails and social accounts (Monica's contact fields), their kinds per
/// account and their labels.
struct CreateContactFields: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ContactFieldTypeModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("fontawesome_icon", .string)
            .field("protocol", .string)
            .field("delible", .bool, .required)
            .field("type", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.schema(ContactFieldModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field(
                "contact_field_type_id", .int, .required,
                .references(ContactFieldTypeModel.schema, "id", onDelete: .cascade)
            )
            .field("data", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.schema("contact_field_labels")
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field(
                "contact_field_id", .int, .required, .references(ContactFieldModel.schema, "id", onDelete: .cascade)
            )
            .field("type", .string, .required)
            .field("label", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.createIndexes(
            [
                ("contact_fields_by_contact", ["contact_id", "id"]),
                ("contact_fields_by_type", ["contact_field_type_id"]),
            ],
            on: ContactFieldModel.schema)
        try await database.createIndexes(
            [("contact_field_labels_by_field", ["contact_field_id", "id"])], on: "contact_field_labels")
        try await database.createIndexes(
            [("contact_field_types_by_owner", ["user_id", "id"])], on: ContactFieldTypeModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("contact_field_labels").delete()
        try await database.schema(ContactFieldModel.schema).delete()
        try await database.schema(ContactFieldTypeModel.schema).delete()
    }
}
