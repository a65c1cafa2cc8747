import Fluent

/// Where a contact works: Monica's `career` (`PUT /api/contacts/{id}/work`).
struct AddContactWork: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement, as SQLite adds them.
        try await database.schema(ContactsTable.name).field(ContactsTable.Column.job, .string).update()
        try await database.schema(ContactsTable.name).field(ContactsTable.Column.company, .string).update()
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "job""#).run()
        try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "company""#).run()
    }
}
