import Fluent
import Foundation
import LocifyCore
import Vapor

/// A failure of a command-line operation, worded for the person at the terminal.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// How the executable runs the server and its one-shot commands.
public enum LocifyApp {
    /// Runs the server until SIGTERM or SIGINT, then lets in-flight requests finish and closes the database.
    public static func serve(config: LocifyConfig, announce: @Sendable (String) -> Void) async throws {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        do {
            try await configure(app, config: config)
            try await app.autoMigrate()
            // Starts the HTTP server; Vapor's serve command also installs the SIGTERM/SIGINT handlers.
            try await app.startup()
            let port = app.http.server.shared.localAddress?.port ?? config.port
            announce("Locify \(LocifyConfig.version) is listening on http://\(config.host):\(port) (database: \(config.storage.kindName))")
            try await app.running?.onStop.get()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        // Stops accepting connections, lets requests in flight finish, then closes the database.
        try await app.asyncShutdown()
        announce("Locify stopped cleanly.")
    }

    /// Runs `body` against a configured, migrated application that serves no requests.
    public static func withApplication<Result: Sendable>(
        config: LocifyConfig, _ body: @Sendable (Application) async throws -> Result
    ) async throws -> Result {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        do {
            try await configure(app, config: config)
            try await app.autoMigrate()
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Creates an account (the CLI's `user create`), whatever the registration policy says.
    public static func createUser(in app: Application, email: String, name: String, password: String) async throws {
        do {
            _ = try await app.accounts.register(AccountDraft(name: name, email: email), password: password, policy: .open)
        } catch AppError.invalid(let failure) {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    /// Creates a personal API token for the account with `email` and returns its secret.
    public static func createToken(in app: Application, email: String, label: String) async throws -> String {
        let userID = try await requireUserID(in: app, email: email)
        do {
            return try await app.accounts.createToken(for: userID, label: label).1
        } catch AppError.invalid(let failure) {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    /// A personal token as `locify token list` shows it; the secret itself is never kept.
    public struct TokenSummary: Sendable {
        public let id: Int
        public let label: String
        public let createdAt: Date
        public let lastUsedAt: Date?
        public let expiresAt: Date?
    }

    public static func listTokens(in app: Application, email: String) async throws -> [TokenSummary] {
        let userID = try await requireUserID(in: app, email: email)
        return try await app.accounts.tokens(of: userID).map {
            TokenSummary(id: try $0.requireID(), label: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, expiresAt: $0.expiresAt)
        }
    }

    public static func revokeToken(in app: Application, email: String, id: Int) async throws {
        let userID = try await requireUserID(in: app, email: email)
        do {
            try await app.accounts.revokeToken(id, of: userID)
        } catch AppError.notFound {
            throw CommandFailure("\(email) has no token with id \(id). `locify token list --email \(email)` shows them.")
        }
    }

    private static func requireUserID(in app: Application, email: String) async throws -> Int {
        guard let user = try await app.accounts.user(withEmail: email) else {
            throw CommandFailure("No account has the email \(email).")
        }
        return try user.requireID()
    }

    /// Fills the account with sample contacts; contacts whose email is already there are skipped,
    /// so running it twice does not duplicate them. Returns (created, skipped).
    public static func seedDemo(in app: Application, email: String) async throws -> (created: Int, skipped: Int) {
        guard let user = try await app.accounts.user(withEmail: email) else {
            throw CommandFailure("No account has the email \(email). Create it first with `locify user create`.")
        }
        let owner = try AuthenticatedUser(user)
        let service = ContactService(database: app.db, owner: owner, now: app.dependencies.now())
        let existing = Set(try await ContactModel.query(on: app.db).ownedBy(owner.id).all().compactMap(\.email))
        var created = 0
        for draft in DemoContacts.drafts where !existing.contains(draft.email ?? "") {
            _ = try await service.create(draft)
            created += 1
        }
        return (created, DemoContacts.drafts.count - created)
    }
}
