import Fluent
import Foundation
import LocifyCore

/// A browser session. The cookie holds a random secret; the database holds only its digest.
final class WebSessionModel: Model, @unchecked Sendable {
    static let schema = "web_sessions"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var user: UserModel
    @Field(key: "secret_digest") var secretDigest: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(userID: Int, secretDigest: String, createdAt: Date, expiresAt: Date) {
        self.$user.id = userID
        self.secretDigest = secretDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A personal API token, stored only as the SHA-256 digest of the secret shown once on creation.
final class APITokenModel: OwnedModel, @unchecked Sendable {
    static let schema = "api_tokens"
    static let ownerKey: KeyPath<APITokenModel, ParentProperty<APITokenModel, UserModel>> = \.$user

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var user: UserModel
    @Field(key: "label") var label: String
    @Field(key: "secret_digest") var secretDigest: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    /// Tokens made in Settings or by the CLI never expire; OAuth log-ins do.
    @OptionalField(key: "expires_at") var expiresAt: Date?

    init() {}

    init(userID: Int, label: String, secretDigest: String, createdAt: Date, expiresAt: Date?) {
        self.$user.id = userID
        self.label = label
        self.secretDigest = secretDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    func summary() throws -> PersonalTokenSummary {
        PersonalTokenSummary(
            id: try requireID(), label: label, createdAt: createdAt, lastUsedAt: lastUsedAt, expiresAt: expiresAt)
    }
}

struct CreateWebSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WebSessionModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("secret_digest", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "secret_digest")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WebSessionModel.schema).delete()
    }
}

struct CreateAPITokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(APITokenModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("label", .string, .required)
            .field("secret_digest", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("expires_at", .datetime)
            .unique(on: "secret_digest")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(APITokenModel.schema).delete()
    }
}
