import Fluent
import SQLKit

/// Which contact is the account's owner themselves (Monica's "me" contact).
struct AddMeContact: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UsersTable.name)
            .field(UsersTable.Column.meContact, .int, .references(ContactsTable.name, "id", onDelete: .setNull))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.sqlDatabase().raw(#"ALTER TABLE "users" DROP COLUMN "me_contact_id""#).run()
    }
}
