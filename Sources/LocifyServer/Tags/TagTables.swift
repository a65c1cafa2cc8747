import Fluent
import Foundation
import LocifyCore
import SQLKit

/// A tag row. Persistence only: the domain works with `Tag`, the API with `TagResource`.
final class TagModel: OwnedModel, @unchecked Sendable {
    static let schema = "tags"
    static let ownerKey: KeyPath<TagModel, ParentProperty<TagModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "name") var name: String
    /// `Tag.key(of:)` of the name, unique per owner.
    @Field(key: "name_key") var nameKey: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, name: String, now: Date) {
        self.$owner.id = ownerID
        self.name = name
        self.nameKey = Tag.key(of: name)
        self.createdAt = now
        self.updatedAt = now
    }

    func value() throws -> Tag {
        Tag(id: try requireID(), ownerID: $owner.id, name: name, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// Tags and the contacts they are on; `contact_tags.id` keeps the order tags were put on a contact.
struct CreateTags: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TagModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("name_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "name_key")
            .create()
        try await database.schema("contact_tags")
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("tag_id", .int, .required, .references(TagModel.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "contact_id", "tag_id")
            .create()
        // Listing a tag's contacts; a contact's tags are found through the unique index.
        try await database.createIndexes([("contact_tags_by_tag", ["tag_id", "contact_id"])], on: "contact_tags")
    }

    func revert(on database: any Database) async throws {
        try await database.schema("contact_tags").delete()
        try await database.schema(TagModel.schema).delete()
    }
}
