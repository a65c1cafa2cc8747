import Fluent
import Foundation
import LocifyCore
import Vapor

/// Accounts, sessions and tokens: the rules that the web pages, the API and the CLI share.
struct AccountService {
    let database: any Database
    let dependencies: LocifyDependencies
    let threadPool: NIOThreadPool

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
            throw ValidationFailure(field: "email", "An account with this email already exists.")
        }
        user.apply(profile)
        user.updatedAt = dependencies.now()
        try await user.save(on: database)
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
        try await UserModel.query(on: database).filter(\.$email == EmailAddress.normalized(email)).first()
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

    func user(forSessionSecret secret: String) async throws -> UserModel? {
        guard
            let session = try await WebSessionModel.query(on: database)
                .join(parent: \.$user)
                .filter(\.$secretDigest == PersonalToken.digest(secret))
                .filter(\.$expiresAt > dependencies.now())
                .first()
        else { return nil }
        return try session.joined(UserModel.self)
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
    }

    /// The owner of a Bearer token, recording when it was last used (at most once a minute, so reads
    /// do not turn into a write each).
    func user(forToken secret: String) async throws -> UserModel? {
        guard PersonalToken.hasAcceptableShape(secret) else { return nil }
        let now = dependencies.now()
        // One query: the token joined with its user (every API request runs this).
        guard
            let token = try await APITokenModel.query(on: database)
                .join(parent: \.$user)
                .filter(\.$secretDigest == PersonalToken.digest(secret)).first()
        else { return nil }
        if let expiry = token.expiresAt, expiry <= now { return nil }
        let user = try token.joined(UserModel.self)
        if token.lastUsedAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
            token.lastUsedAt = now
            try await token.save(on: database)
        }
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
        return try await threadPool.offloaded { try hasher.hash(password) }
    }

    private func verify(_ password: String, against digest: String) async throws -> Bool {
        let hasher = dependencies.passwords
        return try await threadPool.offloaded { try hasher.verify(password, digest) }
    }
}

extension Request {
    var accounts: AccountService {
        AccountService(database: db, dependencies: application.dependencies, threadPool: application.threadPool)
    }
}

extension Application {
    var accounts: AccountService {
        AccountService(database: db, dependencies: dependencies, threadPool: threadPool)
    }
}
