import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Genders become each account's own list (Monica's `/api/genders`), and a contact points at one by
/// `gender_id`. Every existing account gets Monica's three, and each contact's gender (stored until now
/// as `man`, `woman` or `rather_not_say`) moves to its account's gender of that kind.
struct CreateGenders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GendersTable.name)
            .identifier()
            .owner()
            .field(GendersTable.Column.name, .string, .required)
            .field(GendersTable.Column.type, .string, .required)
            .timestamps()
            .create()
        try await database.createIndexes(
            [("genders_by_owner", [GendersTable.Column.owner, .id])], on: GendersTable.self)
        // No foreign key, as for `avatar_photo_id`: GenderService keeps it one of the owner's genders (a
        // deleted gender's contacts move to its replacement), and SQLite cannot drop a referencing column.
        try await database.schema(ContactsTable.name).field(ContactsTable.Column.genderID, .int).update()
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
        try await database.schema(GendersTable.name).delete()
    }
}
