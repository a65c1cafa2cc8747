import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The bytes of photos and Gravatars, once per account and SHA-256 however many photos show them. In the
/// database, so several servers on one PostgreSQL serve the same pictures.
struct CreatePhotoBlobs: AsyncMigration {
    static let schema = "photo_blobs"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("digest", .string, .required)
            .field("bytes", .data, .required)
            .field("byte_count", .int, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "digest")
            .create()
        // PostgreSQL compresses large values and must then read all of one to return a part; stored
        // uncompressed (images hardly compress anyway), a range of a photo reads only its own pages.
        if let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" {
            try await sql.raw(#"ALTER TABLE "photo_blobs" ALTER COLUMN "bytes" SET STORAGE EXTERNAL"#).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// Contacts' photos (Monica's `photos`). Deleting a contact deletes its photos; their bytes go when no
/// photo shows them any more.
struct CreatePhotos: AsyncMigration {
    static let schema = "photos"
    static let indexes: [(name: String, columns: [String])] = [
        ("photos_list_by_created", ["user_id", "created_at", "id"]),
        ("photos_list_by_updated", ["user_id", "updated_at", "id"]),
        ("photos_by_contact", ["contact_id", "id"]),
        ("photos_by_blob", ["blob_id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("blob_id", .int, .required, .references(CreatePhotoBlobs.schema, "id"))
            .field("original_filename", .string, .required)
            .field("mime_type", .string, .required)
            .field("byte_count", .int, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("digest", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// Each contact's avatar: the person's choice (`avatar_choice`, `avatar_photo_id`) and what is served for
/// it (`avatar_source`, `avatar_digest`), kept on the row so lists build avatar URLs without a join.
/// `gravatar_hash` is the MD5 of the e-mail, which finds the contacts a Gravatar look-up answers for.
struct AddContactAvatars: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // SQLite adds one column per ALTER TABLE.
        let contacts = { database.schema(ContactModel.schema) }
        try await contacts().field("avatar_choice", .string).update()
        try await contacts().field("avatar_photo_id", .int).update()
        try await contacts()
            .field("avatar_source", .string, .required, .sql(.default(AvatarSource.initials.rawValue))).update()
        try await contacts().field("avatar_digest", .string).update()
        try await contacts().field("gravatar_hash", .string).update()
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
            [("contacts_by_gravatar", ["user_id", "gravatar_hash"])], on: ContactModel.schema)
    }

    func revert(on database: any Database) async throws {
        for name in ["avatar_choice", "avatar_photo_id", "avatar_source", "avatar_digest", "gravatar_hash"] {
            try await database.schema(ContactModel.schema).deleteField(FieldKey(stringLiteral: name)).update()
        }
    }
}

/// Gravatar answers per account and e-mail hash: a picture or "none", each kept 7 days. Per account so a
/// person who turns look-ups off can have theirs deleted.
struct CreateGravatarCache: AsyncMigration {
    static let schema = "gravatar_cache"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("email_hash", .string, .required)
            .field("blob_id", .int, .references(CreatePhotoBlobs.schema, "id"))
            .field("mime_type", .string)
            .field("digest", .string)
            .field("fetched_at", .datetime, .required)
            .unique(on: "user_id", "email_hash")
            .create()
        try await database.createIndexes([("gravatar_cache_by_age", ["fetched_at"])], on: Self.schema)
        try await database.schema(UserModel.schema)
            .field("looks_up_gravatar", .bool, .required, .sql(.default(true)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
        try await database.schema(UserModel.schema).deleteField("looks_up_gravatar").update()
    }
}

/// Secrets the server makes for itself on first start (the key that signs picture links), in the
/// database so every server on it signs alike.
struct CreateServerSecrets: AsyncMigration {
    static let schema = "server_secrets"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("name", .string, .required)
            .field("value", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "name")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}
