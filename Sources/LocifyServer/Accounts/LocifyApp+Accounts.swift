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
        let userID = try await requireUserID(in: app, email: email)
        do {
            return try await app.accounts.createToken(for: userID, label: label).1
        } catch let failure as ValidationFailure {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    public static func listTokens(in app: Application, email: String) async throws -> [PersonalTokenSummary] {
        try await app.accounts.tokens(of: try await requireUserID(in: app, email: email))
    }

    public static func revokeToken(in app: Application, email: String, id: Int) async throws {
        let userID = try await requireUserID(in: app, email: email)
        do {
            try await app.accounts.revokeToken(id, of: userID)
        } catch AppError.notFound {
            throw CommandFailure(
                "\(email) has no token with id \(id). `locify token list --email \(email)` shows them.")
        }
    }

    static func requireUserID(in app: Application, email: String) async throws -> Int {
        guard let user = try await app.accounts.user(withEmail: email) else {
            throw CommandFailure("No account has the email \(email).")
        }
        return try user.requireID()
    }
}
