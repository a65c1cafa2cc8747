import ArgumentParser
import Foundation
import LocifyCore
import LocifyServer

extension Locify {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Manage personal API tokens.", subcommands: [Create.self, List.self, Revoke.self])
    }
}

extension Locify.Token {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a personal API token.",
            discussion:
                "The token is printed alone on the last line of standard output; it is not stored and cannot be shown again."
        )

        @Option(help: "Email of the account the token acts for.")
        var email: String

        @Option(help: "A name for the token, to recognise it in Settings (e.g. \"Phone\").")
        var name: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let secret = try await storage.withApplication { app in
                try await LocifyApp.createToken(in: app, email: email, label: name)
            }
            print(secret)
        }
    }
}

extension Locify.Token {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List an account's tokens (never their secrets).")

        @Option(help: "Email of the account.")
        var email: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let tokens = try await storage.withApplication { app in
                try await LocifyApp.listTokens(in: app, email: email)
            }
            guard !tokens.isEmpty else {
                print("No tokens.")
                return
            }
            print("ID\tCREATED\tLAST USED\tEXPIRES\tNAME")
            for token in tokens {
                let day = { (date: Date?) in date.map(Timestamp.day) ?? "-" }
                print(
                    "\(token.id)\t\(day(token.createdAt))\t\(day(token.lastUsedAt))\t\(day(token.expiresAt))\t\(token.label)"
                )
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a token: apps using it are signed out at once.")

        @Option(help: "Email of the account.")
        var email: String

        @Option(help: "The token's id, from `locify token list`.")
        var id: Int

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            try await storage.withApplication { app in
                try await LocifyApp.revokeToken(in: app, email: email, id: id)
            }
            print("Revoked token \(id).")
        }
    }
}
