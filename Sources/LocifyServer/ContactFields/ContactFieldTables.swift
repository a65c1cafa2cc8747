import Fluent
import Foundation
import LocifyCore
import SQLKit

/// A contact field type row of one account.
final class ContactFieldTypeModel: OwnedModel, @unchecked Sendable {
    static let schema = "contact_field_types"
    static let ownerKey: KeyPath<ContactFieldTypeModel, ParentProperty<ContactFieldTypeModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "name") var name: String
    @OptionalField(key: "fontawesome_icon") var icon: String?
    @OptionalField(key: "protocol") var linkProtocol: String?
    @Field(key: "delible") var isDelible: Bool
    @OptionalField(key: "type") var type: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, uuid: UUID, name: String, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.name = name
        self.isDelible = true
        self.createdAt = now
        self.updatedAt = now
    }

    func value() throws -> ContactFieldType {
        ContactFieldType(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, name: name, icon: icon, linkProtocol: linkProtocol,
            isDelible: isDelible, type: type, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// Gives an account Monica's default kinds (`ContactFieldType.defaults`, or those `included` picks).
    /// Plain SQL: the migration that moved e-mails into fields calls it too, and a model would select
    /// columns later migrations add.
    static func insertDefaults(
        ownerID: Int, on database: any Database, now: Date, newUUID: () -> UUID,
        included: (_ type: String?) -> Bool = { _ in true }
    ) async throws {
        let sql = try database.sqlDatabase()
        for kind in ContactFieldType.defaults where included(kind.type) {
            try await sql.raw(
                """
                INSERT INTO "contact_field_types" ("uuid", "user_id", "name", "fontawesome_icon", "protocol", \
                "delible", "type", "created_at", "updated_at") VALUES (\(bind: newUUID()), \(literal: ownerID), \
                \(bind: kind.name), \(bind: kind.icon), \(bind: kind.linkProtocol), \(bind: kind.isDelible), \
                \(bind: kind.type), \(bind: now), \(bind: now))
                """
            ).run()
        }
    }
}

/// A contact field row; its labels are rows of `contact_field_labels`.
final class ContactFieldModel: OwnedModel, @unchecked Sendable {
    static let schema = "contact_fields"
    static let ownerKey: KeyPath<ContactFieldModel, ParentProperty<ContactFieldModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Parent(key: "contact_id") var contact: ContactModel
    @Field(key: "contact_field_type_id") var typeID: Int
    @Field(key: "data") var data: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int, typeID: Int, uuid: UUID, data: String, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.typeID = typeID
        self.data = data
        self.createdAt = now
        self.updatedAt = now
    }
}

/// Contacts' phone numbers, e-mails and social accounts (Monica's contact fields), their kinds per
/// account and their labels.
struct CreateContactFields: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ContactFieldTypeModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("fontawesome_icon", .string)
            .field("protocol", .string)
            .field("delible", .bool, .required)
            .field("type", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.schema(ContactFieldModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field(
                "contact_field_type_id", .int, .required,
                .references(ContactFieldTypeModel.schema, "id", onDelete: .cascade)
            )
            .field("data", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.schema("contact_field_labels")
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field(
                "contact_field_id", .int, .required, .references(ContactFieldModel.schema, "id", onDelete: .cascade)
            )
            .field("type", .string, .required)
            .field("label", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.createIndexes(
            [
                ("contact_fields_by_contact", ["contact_id", "id"]),
                ("contact_fields_by_type", ["contact_field_type_id"]),
            ],
            on: ContactFieldModel.schema)
        try await database.createIndexes(
            [("contact_field_labels_by_field", ["contact_field_id", "id"])], on: "contact_field_labels")
        try await database.createIndexes(
            [("contact_field_types_by_owner", ["user_id", "id"])], on: ContactFieldTypeModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("contact_field_labels").delete()
        try await database.schema(ContactFieldModel.schema).delete()
        try await database.schema(ContactFieldTypeModel.schema).delete()
    }
}

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
            _ = try await ContactFieldDigest.refresh(ofContacts: pairs.map(\.1), ownerID: ownerID, on: database)
        }
        try await database.sqlDatabase().raw(#"ALTER TABLE "contacts" DROP COLUMN "email""#).run()
    }

    /// The account's E-mail kind, its kinds made first when it has none; one retyped before kinds kept
    /// their type is made again. Plain SQL, as in every data migration: the models may gain columns in
    /// later migrations.
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
        try await ContactFieldTypeModel.insertDefaults(ownerID: ownerID, on: database, now: now, newUUID: UUID.init) {
            !hasKinds || $0 == ContactFieldType.emailType
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
