import Fluent

/// OpenID Connect sign-in: linked provider accounts, sign-ins under way, links waiting for a password.
struct CreateSignInIdentities: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Identity = UserIdentitiesTable.Column
        try await database.schema(UserIdentitiesTable.name)
            .identifier()
            .owner()
            .field(Identity.provider, .string, .required)
            .field(Identity.subject, .string, .required)
            .field(Identity.email, .string)
            .field(Identity.createdAt, .datetime, .required)
            .unique(on: Identity.provider, Identity.subject)
            .create()
        try await database.createIndexes([("user_identities_by_user", [.owner])], on: UserIdentitiesTable.self)
        typealias Attempt = SignInAttemptsTable.Column
        try await database.schema(SignInAttemptsTable.name)
            .identifier()
            .field(Attempt.stateDigest, .string, .required)
            .field(Attempt.provider, .string, .required)
            .field(Attempt.verifier, .string, .required)
            .field(Attempt.nonce, .string, .required)
            .field(Attempt.linkingUser, .int, .references(UsersTable.name, "id", onDelete: .cascade))
            .field(Attempt.createdAt, .datetime, .required)
            .field(Attempt.expiresAt, .datetime, .required)
            .unique(on: Attempt.stateDigest)
            .create()
        typealias Confirmation = SignInConfirmationsTable.Column
        try await database.schema(SignInConfirmationsTable.name)
            .identifier()
            .field(Confirmation.tokenDigest, .string, .required)
            .owner()
            .field(Confirmation.provider, .string, .required)
            .field(Confirmation.subject, .string, .required)
            .field(Confirmation.email, .string)
            .field(Confirmation.createdAt, .datetime, .required)
            .field(Confirmation.expiresAt, .datetime, .required)
            .unique(on: Confirmation.tokenDigest)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SignInConfirmationsTable.name).delete()
        try await database.schema(SignInAttemptsTable.name).delete()
        try await database.schema(UserIdentitiesTable.name).delete()
    }
}
