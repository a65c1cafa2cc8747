import Fluent
import Foundation
import LocifyCore
import SQLKit
import Vapor

/// Accounts, sessions and tokens: the rules that the web pages, the API and the CLI share.
struct AccountService {
    let database: any Database
    let dependencies: LocifyDependencies
    /// Where passwords are hashed: bcrypt is slow on purpose, and must not hold up database work.
    let cpuWork: NIOThreadPool
    let tokenCache: TokenCache

    static let sessionLifetime: TimeInterval = 30 * 24 * 3600
    static let oauthTokenLifetime: TimeInterval = 365 * 24 * 3600

    // MARK: Registration and profile

    /// Makes an account. `password` nil makes one without a password (a first sign-in with another
    /// provider): it signs in through its linked providers until it sets one.
    func register(_ draft: AccountDraft, password: String?, policy: RegistrationPolicy) async throws
        -> AuthenticatedUser
    {
        guard try await allowsRegistration(policy) else { throw AccountError.registrationClosed }
        var problems: [FieldError] = []
        var profile: AccountProfile?
        do {
            profile = try draft.validated()
        } catch {
            problems += error.errors
        }
        if let password, let problem = PasswordRules.problem(with: password) {
            problems.append(FieldError(field: "password", message: problem))
        }
        if let email = profile?.email, try await isEmailTaken(email) {
            problems.append(FieldError(field: "email", message: "An account with this email already exists."))
        }
        guard let profile, problems.isEmpty else { throw ValidationFailure(problems) }
        var passwordHash = Self.noPassword
        if let password { passwordHash = try await hash(password) }
        let (uuid, now) = (dependencies.newUUID(), dependencies.now())
        var values = UsersTable.values(of: profile)
        values.merge([.uuid: uuid, .passwordHash: passwordHash, .createdAt: now, .updatedAt: now]) { $1 }
        let id = try await users.insert(values)
        return AuthenticatedUser(id: id, uuid: uuid, profile: profile, createdAt: now, updatedAt: now)
    }

    /// Whether `policy` lets one more account be made now (the first always may be).
    func allowsRegistration(_ policy: RegistrationPolicy) async throws -> Bool {
        let existingUsers =
            try await database.plainRows(#"SELECT COUNT(*) AS "users" FROM "users""#, columns: ["users"])
            .first?.requiredInteger(0) ?? 0
        return policy.allowsRegistration(existingUserCount: existingUsers)
    }

    /// What `password_hash` holds for an account without a password: no password matches it.
    static let noPassword = ""

    /// Whether the account can sign in with a password.
    func hasPassword(_ userID: Int) async throws -> Bool {
        guard let (_, digest) = try await credentials(where: #""id" = \#(literal: userID)"#) else {
            throw AppError.notFound
        }
        return digest != Self.noPassword
    }

    private var users: TableWriter<UsersTable> { TableWriter(UsersTable.self, on: database) }

    func updateProfile(of userID: Int, with draft: AccountDraft) async throws -> AccountProfile {
        let user = try await requireUser(userID)
        let profile: AccountProfile
        do {
            profile = try draft.validated()
        } catch {
            throw error
        }
        if profile.email != user.profile.email, try await isEmailTaken(profile.email) {
            throw ValidationFailure(field: "email", "An account with this email already exists.", reason: .conflict)
        }
        var values = UsersTable.values(of: profile)
        values[.updatedAt] = dependencies.now()
        try await users.update(values, where: #""id" = \#(literal: userID)"#)
        tokenCache.evict(userID: userID)
        return profile
    }

    func changePassword(of userID: Int, current: String, new: String, confirmation: String) async throws {
        guard let (_, passwordHash) = try await credentials(where: #""id" = \#(literal: userID)"#) else {
            throw AppError.notFound
        }
        var problems: [FieldError] = []
        // An account made by signing in with another provider has no password yet: it sets its first.
        if passwordHash != Self.noPassword, try await !verify(current, against: passwordHash) {
            problems.append(FieldError(field: "current_password", message: "Current password is not correct."))
        }
        if let problem = PasswordRules.problem(with: new) {
            problems.append(FieldError(field: "new_password", message: problem))
        } else if new != confirmation {
            problems.append(FieldError(field: "password_confirmation", message: "The new passwords do not match."))
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        try await users.update(
            [.passwordHash: try await hash(new), .updatedAt: dependencies.now()], where: #""id" = \#(literal: userID)"#)
    }

    /// The user with these credentials, or nil. An unknown email costs one bcrypt hash, as long as
    /// checking a known one, so timing does not tell whether the email exists.
    func authenticate(email: String, password: String) async throws -> AuthenticatedUser? {
        // No account's e-mail holds NUL, and PostgreSQL refuses it in a question.
        guard !email.unicodeScalars.contains("\u{0}"),
            let (user, passwordHash) = try await credentials(
                where: #""email" = \#(bind: EmailAddress.normalized(email))"#)
        else {
            _ = try await hash(password)
            return nil
        }
        return try await verify(password, against: passwordHash) ? user : nil
    }

    func user(withEmail email: String) async throws -> AuthenticatedUser? {
        guard !email.unicodeScalars.contains("\u{0}") else { return nil }
        return try await credentials(where: #""email" = \#(bind: EmailAddress.normalized(email))"#)?.user
    }

    /// The user `condition` picks, with their password's hash.
    private func credentials(where condition: SQLQueryString) async throws
        -> (user: AuthenticatedUser, passwordHash: String)?
    {
        let columns = UsersTable.userColumns
        guard
            let row = try await database.plainRows(
                #"SELECT \#(columns.list), "password_hash" FROM "users" WHERE \#(condition)"#,
                columns: columns.names + ["password_hash"]
            ).first
        else { return nil }
        return (try UsersTable.user(from: row), try row.requiredText(columns.names.count))
    }

    // MARK: Web sessions

    /// Starts a session and returns the secret for the cookie. The user's expired sessions go at the
    /// same time, so the table does not grow for ever.
    func startSession(for userID: Int) async throws -> String {
        let secret = dependencies.newSecret()
        let now = dependencies.now()
        let sessions = TableWriter(WebSessionsTable.self, on: database)
        try await sessions.delete(where: #""user_id" = \#(literal: userID) AND "expires_at" <= \#(bind: now)"#)
        try await sessions.insert([
            .owner: userID, .secretDigest: PersonalToken.digest(secret), .createdAt: now,
            .expiresAt: now.addingTimeInterval(Self.sessionLifetime),
        ])
        return secret
    }

    /// The user of an unexpired session. One query, read as plain rows (every page view runs it).
    func user(forSessionSecret secret: String) async throws -> AuthenticatedUser? {
        let rows = try await database.plainRows(
            """
            SELECT \(UsersTable.userColumns.qualifiedList) FROM "web_sessions" \
            JOIN "users" ON "users"."id" = "web_sessions"."user_id" \
            WHERE "web_sessions"."secret_digest" = \(bind: PersonalToken.digest(secret)) \
            AND "web_sessions"."expires_at" > \(bind: dependencies.now())
            """, columns: UsersTable.userColumns.names)
        return try rows.first.map { try UsersTable.user(from: $0) }
    }

    func endSession(secret: String) async throws {
        try await TableWriter(WebSessionsTable.self, on: database).delete(
            where: #""secret_digest" = \#(bind: PersonalToken.digest(secret))"#)
    }

    // MARK: API tokens

    /// Creates a token and returns it with its secret, which is not stored and cannot be shown again.
    func createToken(for userID: Int, label: String, lifetime: TimeInterval? = nil) async throws -> (
        PersonalTokenSummary, String
    ) {
        let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationFailure(field: "label", "Token name is required.") }
        guard trimmed.count <= 100 else {
            throw ValidationFailure(field: "label", "Token name must be at most 100 characters.")
        }
        let secret = dependencies.newSecret()
        let now = dependencies.now()
        let expiresAt = lifetime.map { now.addingTimeInterval($0) }
        let id = try await TableWriter(APITokensTable.self, on: database).insert([
            .owner: userID, .label: trimmed, .secretDigest: PersonalToken.digest(secret), .createdAt: now,
            .expiresAt: expiresAt,
        ])
        return (
            PersonalTokenSummary(id: id, label: trimmed, createdAt: now, lastUsedAt: nil, expiresAt: expiresAt), secret
        )
    }

    /// Newest first.
    func tokens(of userID: Int) async throws -> [PersonalTokenSummary] {
        let columns = APITokensTable.summaryColumns
        return try await database.plainRows(
            """
            SELECT \(columns.list) FROM "api_tokens" WHERE "user_id" = \(literal: userID) \
            ORDER BY "created_at" DESC, "id" DESC
            """, columns: columns.names
        ).map(APITokensTable.summary(from:))
    }

    func revokeToken(_ tokenID: Int, of userID: Int) async throws {
        try await TableWriter(APITokensTable.self, on: database).delete(tokenID, ownedBy: userID)
        tokenCache.evict(tokenID: tokenID)
    }

    /// What a Bearer token is known to be without waiting: every API request asks, so a token seen in the
    /// last few seconds is answered from `TokenCache`, and one of the wrong shape is refused outright.
    enum TokenLookup {
        case user(AuthenticatedUser)
        case refused
        /// Ask the database: `user(forTokenDigest:)`.
        case unknown(digest: String)
    }

    func lookUpToken(_ secret: String) -> TokenLookup {
        guard PersonalToken.hasAcceptableShape(secret) else { return .refused }
        let digest = PersonalToken.digest(secret)
        if let cached = tokenCache.user(forDigest: digest, now: dependencies.now()) { return .user(cached) }
        return .unknown(digest: digest)
    }

    /// The owner of a token, from the cache or the database; nil for an unknown, expired or malformed one.
    func user(forToken secret: String) async throws -> AuthenticatedUser? {
        switch lookUpToken(secret) {
        case .user(let user): user
        case .refused: nil
        case .unknown(let digest): try await user(forTokenDigest: digest)
        }
    }

    /// The owner of a token not in the cache: one query, read as plain rows, which also records when the
    /// token was last used (at most once a minute, so reads do not turn into a write each).
    func user(forTokenDigest digest: String) async throws -> AuthenticatedUser? {
        let now = dependencies.now()
        // Aliased: on PostgreSQL a row is read by name, and the user's columns have the same names.
        guard
            let row = try await database.plainRows(
                """
                SELECT "api_tokens"."id" AS "token_id", "api_tokens"."expires_at" AS "token_expires_at", \
                "api_tokens"."last_used_at" AS "token_last_used_at", \(UsersTable.userColumns.qualifiedList) \
                FROM "api_tokens" \
                JOIN "users" ON "users"."id" = "api_tokens"."user_id" WHERE "api_tokens"."secret_digest" = \(bind: digest)
                """, columns: ["token_id", "token_expires_at", "token_last_used_at"] + UsersTable.userColumns.names
            ).first
        else { return nil }
        let expiresAt = try row.date(1)
        if let expiresAt, expiresAt <= now { return nil }
        let tokenID = try row.requiredInteger(0)
        let lastUsedAt = try row.date(2)
        if lastUsedAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
            try await TableWriter(APITokensTable.self, on: database).update(
                [.lastUsedAt: now], where: #""id" = \#(literal: tokenID)"#)
        }
        let user = try UsersTable.user(from: row, at: 3)
        tokenCache.store(.init(user: user, tokenID: tokenID, expiresAt: expiresAt, cachedAt: now), forDigest: digest)
        return user
    }

    // MARK: Helpers

    private func requireUser(_ id: Int) async throws -> AuthenticatedUser {
        guard let user = try await database.user(id) else { throw AppError.notFound }
        return user
    }

    private func isEmailTaken(_ email: String) async throws -> Bool {
        try await credentials(where: #""email" = \#(bind: email)"#) != nil
    }

    private func hash(_ password: String) async throws -> String {
        let hasher = dependencies.passwords
        return try await cpuWork.offloaded { try hasher.hash(password) }
    }

    private func verify(_ password: String, against digest: String) async throws -> Bool {
        guard digest != Self.noPassword else {
            // As long as a real check, so timing does not tell an account without a password.
            _ = try await hash(password)
            return false
        }
        let hasher = dependencies.passwords
        return try await cpuWork.offloaded { try hasher.verify(password, digest) }
    }
}

extension Request {
    var accounts: AccountService {
        AccountService(
            database: db, dependencies: application.dependencies, cpuWork: application.cpuWork,
            tokenCache: application.tokenCache)
    }
}

extension Application {
    var accounts: AccountService {
        AccountService(database: db, dependencies: dependencies, cpuWork: cpuWork, tokenCache: tokenCache)
    }
}
