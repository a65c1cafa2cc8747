import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Contacts keep e-mails only as contact fields: each contact's former `email` becomes its first Email
/// field (the account gets Monica's kinds first if it has none), and every contact with fields gets
/// their data in its search key.
struct MoveContactEmailsToFields: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let rows = try await database.plainRows(
            #"SELECT "id", "user_id", "email" FROM "contacts" WHERE "email" IS NOT NULL ORDER BY "id""#,
            columns: ["id", "user_id", "email"])
        var emailKinds: [Int: Int] = [:]
        let now = Date()
        for row in rows {
            let ownerID = try row.requiredInteger(1)
            let email = try row.requiredText(2).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !email.isEmpty else { continue }
            let kindID: Int
            if let known = emailKinds[ownerID] {
                kindID = known
            } else {
                kindID = try await Self.emailKind(of: ownerID, on: database, now: now)
                emailKinds[ownerID] = kindID
            }
            try await database.sqlDatabase().raw(
                """
                INSERT INTO "contact_fields" ("uuid", "user_id", "contact_id", "contact_field_type_id", "data", \
                "created_at", "updated_at") VALUES (\(bind: UUID()), \(literal: ownerID), \
                \(literal: try row.requiredInteger(0)), \(literal: kindID), \(bind: email), \(bind: now), \(bind: now))
                """
            ).run()
        }
        let withFields = try await database.plainRows(
            #"SELECT DISTINCT "user_id", "contact_id" FROM "contact_fields" ORDER BY "user_id""#,
            columns: ["user_id", "contact_id"])
        let byOwner = Dictionary(
            grouping: try withFields.map { (try $0.requiredInteger(0), try $0.requiredInteger(1)) }
        ) {
            $0.0
        }
        for (ownerID, pairs) in byOwner {
            let changes = try await ContactFieldDigest.derivedChanges(
                ofContacts: pairs.map(\.1), ownerID: ownerID, on: database)
            for change in changes {
                try await database.sqlDatabase().raw(
                    """
                    UPDATE "contacts" SET "search_key" = \(bind: change.searchKey), \
                    "gravatar_hash" = \(bind: change.gravatarHash) WHERE "id" = \(literal: change.contactID)
                    """
                ).run()
            }
        }
        try await database.sqlDatabase().raw(#"ALTER TABLE "contacts" DROP COLUMN "email""#).run()
    }

    /// The account's E-mail kind, its kinds made first when it has none; one retyped before kinds kept
    /// their type is made again. Plain SQL, as in every data migration: a table's writer writes what the
    /// latest schema holds (a revision, once sync stamps one), which this migration's schema lacks.
    private static func emailKind(of ownerID: Int, on database: any Database, now: Date) async throws -> Int {
        func emailKindID() async throws -> Int? {
            try await database.plainRows(
                """
                SELECT "id" FROM "contact_field_types" WHERE "user_id" = \(literal: ownerID) \
                AND "type" = \(bind: ContactFieldType.emailType) ORDER BY "id"
                """, columns: ["id"]
            ).first?.requiredInteger(0)
        }
        if let id = try await emailKindID() { return id }
        let existing = try await database.plainRows(
            #"SELECT COUNT(*) AS "kinds" FROM "contact_field_types" WHERE "user_id" = \#(literal: ownerID)"#,
            columns: ["kinds"])
        let hasKinds = try (existing.first?.requiredInteger(0) ?? 0) > 0
        for kind in ContactFieldType.defaults where !hasKinds || kind.type == ContactFieldType.emailType {
            try await database.sqlDatabase().raw(
                """
                INSERT INTO "contact_field_types" ("uuid", "user_id", "name", "fontawesome_icon", "protocol", \
                "delible", "type", "created_at", "updated_at") VALUES (\(bind: UUID()), \(literal: ownerID), \
                \(bind: kind.name), \(bind: kind.icon), \(bind: kind.linkProtocol), \(bind: kind.isDelible), \
                \(bind: kind.type), \(bind: now), \(bind: now))
                """
            ).run()
        }
        guard let id = try await emailKindID() else { throw AppError.notFound }
        return id
    }

    /// Each contact's first Email field goes back to `email`.
    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        try await sql.raw(#"ALTER TABLE "contacts" ADD COLUMN "email" TEXT"#).run()
        let firstEmails = try await database.plainRows(
            """
            SELECT MIN("contact_fields"."id") AS "id" FROM "contact_fields" JOIN "contact_field_types" \
            ON "contact_field_types"."id" = "contact_fields"."contact_field_type_id" \
            WHERE "contact_field_types"."type" = \(bind: ContactFieldType.emailType) \
            GROUP BY "contact_fields"."contact_id"
            """, columns: ["id"])
        for row in firstEmails {
            let id = try row.requiredInteger(0)
            try await sql.raw(
                """
                UPDATE "contacts" SET "email" = (SELECT "data" FROM "contact_fields" WHERE "id" = \(literal: id)) \
                WHERE "id" = (SELECT "contact_id" FROM "contact_fields" WHERE "id" = \(literal: id))
                """
            ).run()
            try await sql.raw(#"DELETE FROM "contact_fields" WHERE "id" = \#(literal: id)"#).run()
        }
    }
}
