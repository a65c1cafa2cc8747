import Fluent
import SQLKit

struct CreateContacts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = ContactsTable.Column
        try await database.schema(ContactsTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Column.firstName, .string, .required)
            .field(Column.lastName, .string)
            .field(Column.nickname, .string)
            .field(Column.description, .string)
            // Moved to contact fields (`MoveContactEmailsToFields`).
            .field("email", .string)
            .field(Column.birthdateDay, .int)
            .field(Column.birthdateMonth, .int)
            .field(Column.birthdateYear, .int)
            .field(Column.birthdateIsAgeBased, .bool, .required)
            // Became `gender_id`, one of the account's genders (`CreateGenders`).
            .field("gender", .string)
            .field(Column.isStarred, .bool, .required)
            .field(Column.isArchived, .bool, .required)
            .field(Column.defaultAvatarColor, .string, .required)
            .field(Column.searchKey, .string, .required)
            .timestamps()
            .unique(on: Column.uuid)
            .create()
        // Every contact query starts from its owner; the list sorts by name within that.
        try await database.createIndexes(
            [("contacts_owner_listing", [Column.owner, .isStarred, .searchKey])], on: ContactsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ContactsTable.name).delete()
    }
}
