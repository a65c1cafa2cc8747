import Foundation
import LocifyCore
import Vapor

/// The account operations of the command line (`user`, `token`).
extension LocifyApp {
    /// Creates an account (the CLI's `user create`), whatever the registration policy says.
    public static func createUser(in app: Application, email: String, name: String, password: String) async throws {
        do {
            _ = try await app.accounts.register(
                AccountDraft(name: name, email: email), password: password, policy: .open)
        } catch let failure as ValidationFailure {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    /// Creates a personal API token for the account with `email` and returns its secret.
    public static func createToken(in app: Application, email: String, label: String) async throws -> String {
        let userID = try await requireAccount(in: app, email: email).id
        do {
            return try await app.accounts.createToken(for: userID, label: label).1
        } catch let failure as ValidationFailure {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    public static func listTokens(in app: Application, email: String) async throws -> [PersonalTokenSummary] {
        try await app.accounts.tokens(of: try await requireAccount(in: app, email: email).id)
    }

    public static func revokeToken(in app: Application, email: String, id: Int) async throws {
        let userID = try await requireAccount(in: app, email: email).id
        do {
            try await app.accounts.revokeToken(id, of: userID)
        } catch AppError.notFound {
            throw CommandFailure(
                "\(email) has no token with id \(id). `locify token list --email \(email)` shows them.")
        }
    }

    /// The account a command names by email, or a failure that says how to make one.
    static func requireAccount(in app: Application, email: String) async throws -> AuthenticatedUser {
        guard let user = try await app.accounts.user(withEmail: email) else {
            throw CommandFailure("No account has the email \(email). Create it first with `locify user create`.")
        }
        return user
    }
}
