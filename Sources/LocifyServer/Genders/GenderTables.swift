import Fluent
import Foundation
import LocifyCore
import SQLKit

/// A gender row of one account. Persistence only: the domain works with `Gender`, the API with
/// `GenderResource`.
final class GenderModel: OwnedModel, @unchecked Sendable {
    static let schema = "genders"
    static let ownerKey: KeyPath<GenderModel, ParentProperty<GenderModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "name") var name: String
    @Field(key: "type") var type: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, name: String, type: String, now: Date) {
        self.$owner.id = ownerID
        self.name = name
        self.type = type
        self.createdAt = now
        self.updatedAt = now
    }

    func value() throws -> Gender { Gender(id: try requireID(), name: name, type: type) }
}

/// Genders become each account's own list (Monica's `/api/genders`), and a contact points at one by
/// `gender_id`. Every existing account gets Monica's three, and each contact's gender (stored until now
/// as `man`, `woman` or `rather_not_say`) moves to its account's gender of that kind.
struct CreateGenders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GenderModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("type", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.createIndexes([("genders_by_owner", ["user_id", "id"])], on: GenderModel.schema)
        // No foreign key, as for `avatar_photo_id`: GenderService keeps it one of the owner's genders (a
        // deleted gender's contacts move to its replacement), and SQLite cannot drop a referencing column.
        try await database.schema(ContactModel.schema).field("gender_id", .int).update()
        let sql = try database.sqlDatabase()
        let now = Date()
        for (name, type) in Gender.defaults {
            try await sql.raw(
                """
                INSERT INTO "genders" ("user_id", "name", "type", "created_at", "updated_at") \
                SELECT "id", \(bind: name), \(bind: type), \(bind: now), \(bind: now) FROM "users" ORDER BY "id"
                """
            ).run()
        }
        for (stored, type) in [("man", "M"), ("woman", "F"), ("rather_not_say", "O")] {
            try await sql.raw(
                """
                UPDATE "contacts" SET "gender_id" = (SELECT "genders"."id" FROM "genders" \
                WHERE "genders"."user_id" = "contacts"."user_id" AND "genders"."type" = \(bind: type)) \
                WHERE "gender" = \(bind: stored)
                """
            ).run()
        }
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "gender""#).run()
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        try await sql.raw(#"ALTER TABLE "contacts" ADD COLUMN "gender" TEXT"#).run()
        for (stored, type) in [("man", "M"), ("woman", "F"), ("rather_not_say", "O")] {
            try await sql.raw(
                """
                UPDATE "contacts" SET "gender" = \(bind: stored) WHERE "gender_id" IN \
                (SELECT "id" FROM "genders" WHERE "type" = \(bind: type))
                """
            ).run()
        }
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "gender_id""#).run()
        try await database.schema(GenderModel.schema).delete()
    }
}
