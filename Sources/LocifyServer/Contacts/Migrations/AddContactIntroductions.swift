import Fluent
import SQLKit

/// How the owner met each contact and what the contact eats (Monica's `how_you_met` and
/// `food_preferences`).
struct AddContactIntroductions: AsyncMigration {
    private typealias Column = ContactsTable.Column

    func prepare(on database: any Database) async throws {
        // One column per statement, as SQLite adds them.
        let fields: [(Column, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            (.foodPreferences, .string, []), (.firstMetStory, .string, []), (.firstMetWhere, .string, []),
            (.firstMetDay, .int, []), (.firstMetMonth, .int, []), (.firstMetYear, .int, []),
            (.firstMetIsAgeBased, .bool, [.required, .sql(.default(false))]),
            (.firstMetThrough, .int, [.references(ContactsTable.name, "id", onDelete: .setNull)]),
        ]
        for (column, type, constraints) in fields {
            try await database.schema(ContactsTable.name).field(
                .definition(name: .key(.init(stringLiteral: column.rawValue)), dataType: type, constraints: constraints)
            ).update()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        for column in [
            Column.foodPreferences, .firstMetStory, .firstMetWhere, .firstMetDay, .firstMetMonth, .firstMetYear,
            .firstMetIsAgeBased, .firstMetThrough,
        ] {
            try await sql.raw(#"ALTER TABLE "contacts" DROP COLUMN "\#(unsafeRaw: column.rawValue)""#).run()
        }
    }
}
