import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Each contact's avatar: the person's choice (`avatar_choice`, `avatar_photo_id`) and what is served for
/// it (`avatar_source`, `avatar_digest`), kept on the row so lists build avatar URLs without a join.
/// `gravatar_hash` is the MD5 of the e-mail, which finds the contacts a Gravatar look-up answers for.
struct AddContactAvatars: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // SQLite adds one column per ALTER TABLE.
        typealias Column = ContactsTable.Column
        let contacts = { database.schema(ContactsTable.name) }
        try await contacts().field(Column.avatarChoice, .string).update()
        try await contacts().field(Column.avatarPhotoID, .int).update()
        try await contacts()
            .field(Column.avatarSource, .string, .required, .sql(.default(AvatarSource.initials.rawValue))).update()
        try await contacts().field(Column.avatarDigest, .string).update()
        try await contacts().field(Column.gravatarHash, .string).update()
        let sql = try database.sqlDatabase()
        let rows = try await database.plainRows(
            #"SELECT "id", "email" FROM "contacts" WHERE "email" IS NOT NULL"#, columns: ["id", "email"])
        for row in rows {
            guard let email = try row.text(1) else { continue }
            try await sql.raw(
                """
                UPDATE "contacts" SET "gravatar_hash" = \(bind: Avatar.gravatarHash(email: email)) \
                WHERE "id" = \(bind: try row.requiredInteger(0))
                """
            ).run()
        }
        try await database.createIndexes(
            [("contacts_by_gravatar", [Column.owner, .gravatarHash])], on: ContactsTable.self)
    }

    func revert(on database: any Database) async throws {
        let added: [ContactsTable.Column] = [
            .avatarChoice, .avatarPhotoID, .avatarSource, .avatarDigest, .gravatarHash,
        ]
        for column in added {
            try await database.schema(ContactsTable.name).deleteField(FieldKey(stringLiteral: column.rawValue)).update()
        }
    }
}
