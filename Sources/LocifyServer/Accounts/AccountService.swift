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

    func register(_ draft: AccountDraft, password: String, policy: RegistrationPolicy) async throws -> UserModel {
        let existingUsers = try await UserModel.query(on: database).count()
        guard policy.allowsRegistration(existingUserCount: existingUsers) else { throw AccountError.registrationClosed }
        var problems: [FieldError] = []
        var profile: AccountProfile?
        do {
            profile = try draft.validated()
        } catch {
            problems += error.errors
        }
        if let problem = PasswordRules.problem(with: password) {
            problems.append(FieldError(field: "password", message: problem))
        }
        if let email = profile?.email, try await isEmailTaken(email) {
            problems.append(FieldError(field: "email", message: "An account with this email already exists."))
        }
        guard let profile, problems.isEmpty else { throw ValidationFailure(problems) }
        let user = UserModel(profile: profile, passwordHash: try await hash(password), now: dependencies.now())
        try await user.create(on: database)
        return user
    }

    func updateProfile(of userID: Int, with draft: AccountDraft) async throws -> UserModel {
        let user = try await requireUser(userID)
        let profile: AccountProfile
        do {
            profile = try draft.validated()
        } catch {
            throw error
        }
        if profile.email != user.email, try await isEmailTaken(profile.email) {
            throw ValidationFailure(field: "email", "An account with this email already exists.", reason: .conflict)
        }
        user.apply(profile)
        user.updatedAt = dependencies.now()
        try await user.save(on: database)
        tokenCache.evict(userID: userID)
        return user
    }

    func changePassword(of userID: Int, current: String, new: String, confirmation: String) async throws {
        let user = try await requireUser(userID)
        var problems: [FieldError] = []
        if try await !verify(current, against: user.passwordHash) {
            problems.append(FieldError(field: "current_password", message: "Current password is not correct."))
        }
        if let problem = PasswordRules.problem(with: new) {
            problems.append(FieldError(field: "new_password", message: problem))
        } else if new != confirmation {
            problems.append(FieldError(field: "password_confirmation", message: "The new passwords do not match."))
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        user.passwordHash = try await hash(new)
        user.updatedAt = dependencies.now()
        try await user.save(on: database)
    }

    /// The user with these credentials, or nil. An unknown email costs one bcrypt hash, as long as
    /// checking a known one, so timing does not tell whether the email exists.
    func authenticate(email: String, password: String) async throws -> UserModel? {
        guard let user = try await user(withEmail: email) else {
            _ = try await hash(password)
            return nil
        }
        return try await verify(password, against: user.passwordHash) ? user : nil
    }

    func user(withEmail email: String) async throws -> UserModel? {
        // No account's e-mail holds NUL, and PostgreSQL refuses it in a question.
        guard !email.unicodeScalars.contains("\u{0}") else { return nil }
        return try await UserModel.query(on: database).filter(\.$email == EmailAddress.normalized(email)).first()
    }

    // MARK: Web sessions

    /// Starts a session and returns the secret for the cookie. The user's expired sessions go at the
    /// same time, so the table does not grow for ever.
    func startSession(for userID: Int) async throws -> String {
        let secret = dependencies.newSecret()
        let now = dependencies.now()
        try await WebSessionModel.query(on: database)
            .filter(\.$user.$id == userID).filter(\.$expiresAt <= now).delete()
        try await WebSessionModel(
            userID: userID, secretDigest: PersonalToken.digest(secret), createdAt: now,
            expiresAt: now.addingTimeInterval(Self.sessionLifetime)
        ).create(on: database)
        return secret
    }

    /// The user of an unexpired session. One query, read as plain rows (every page view runs it).
    func user(forSessionSecret secret: String) async throws -> AuthenticatedUser? {
        let sql = try database.sqlDatabase()
        let row = try await sql.raw(
            """
            SELECT \(AuthenticatedUser.userColumns) FROM \(ident: WebSessionModel.schema) AS s \
            JOIN \(ident: UserModel.schema) AS u ON u.id = s.user_id \
            WHERE s.secret_digest = \(bind: PersonalToken.digest(secret)) AND s.expires_at > \(bind: dependencies.now())
            """
        ).first()
        return try row.map { try AuthenticatedUser(row: $0) }
    }

    func endSession(secret: String) async throws {
        try await WebSessionModel.query(on: database).filter(\.$secretDigest == PersonalToken.digest(secret)).delete()
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
        let token = APITokenModel(
            userID: userID, label: trimmed, secretDigest: PersonalToken.digest(secret), createdAt: now,
            expiresAt: lifetime.map { now.addingTimeInterval($0) })
        try await token.create(on: database)
        return (try token.summary(), secret)
    }

    /// Newest first.
    func tokens(of userID: Int) async throws -> [PersonalTokenSummary] {
        try await APITokenModel.owned(by: userID, on: database)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).all()
            .map { try $0.summary() }
    }

    func revokeToken(_ tokenID: Int, of userID: Int) async throws {
        try await APITokenModel.requireOwned(tokenID, by: userID, on: database).delete(on: database)
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
        let sql = try database.sqlDatabase()
        guard
            let row = try await sql.raw(
                """
                SELECT t.id AS token_id, t.expires_at AS token_expires_at, t.last_used_at AS token_last_used_at, \
                \(AuthenticatedUser.userColumns) FROM \(ident: APITokenModel.schema) AS t \
                JOIN \(ident: UserModel.schema) AS u ON u.id = t.user_id WHERE t.secret_digest = \(bind: digest)
                """
            ).first()
        else { return nil }
        let expiresAt = try row.decodeIfPresent(column: "token_expires_at", as: Date.self)
        if let expiresAt, expiresAt <= now { return nil }
        let tokenID = try row.decode(column: "token_id", as: Int.self)
        let lastUsedAt = try row.decodeIfPresent(column: "token_last_used_at", as: Date.self)
        if lastUsedAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
            try await sql.raw(
                "UPDATE \(ident: APITokenModel.schema) SET last_used_at = \(bind: now) WHERE id = \(bind: tokenID)"
            ).run()
        }
        let user = try AuthenticatedUser(row: row)
        tokenCache.store(.init(user: user, tokenID: tokenID, expiresAt: expiresAt, cachedAt: now), forDigest: digest)
        return user
    }

    // MARK: Helpers

    private func requireUser(_ id: Int) async throws -> UserModel {
        guard let user = try await UserModel.find(id, on: database) else { throw AppError.notFound }
        return user
    }

    private func isEmailTaken(_ email: String) async throws -> Bool {
        try await UserModel.query(on: database).filter(\.$email == email).count() > 0
    }

    private func hash(_ password: String) async throws -> String {
        let hasher = dependencies.passwords
        return try await cpuWork.offloaded { try hasher.hash(password) }
    }

    private func verify(_ password: String, against digest: String) async throws -> Bool {
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
