import Fluent
import SQLKit

struct CreateContacts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ContactModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("first_name", .string, .required)
            .field("last_name", .string)
            .field("nickname", .string)
            .field("description", .string)
            .field("email", .string)
            .field("birthdate_day", .int)
            .field("birthdate_month", .int)
            .field("birthdate_year", .int)
            .field("birthdate_is_age_based", .bool, .required)
            .field("gender", .string)
            .field("is_starred", .bool, .required)
            .field("is_archived", .bool, .required)
            .field("default_avatar_color", .string, .required)
            .field("search_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        // Every contact query starts from its owner; the list sorts by name within that.
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "contacts_owner_listing")
                .on(ContactModel.schema).column("user_id").column("is_starred").column("search_key").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ContactModel.schema).delete()
    }
}

/// Where a contact works: Monica's `career` (`PUT /api/contacts/{id}/work`).
struct AddContactWork: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement, as SQLite adds them.
        try await database.schema(ContactModel.schema).field("job", .string).update()
        try await database.schema(ContactModel.schema).field("company", .string).update()
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "job""#).run()
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "company""#).run()
    }
}
