import ArgumentParser
import Foundation
import LocifyServer

extension Locify {
    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract: "Manage accounts.", subcommands: [Create.self])
    }
}

extension Locify.User {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create an account.",
            discussion: "Without --password the password is asked for at the terminal (not echoed).")

        @Option(help: "The account's email address.")
        var email: String

        @Option(help: "The person's name.")
        var name: String

        @Option(help: "At least 8 characters. Prompted for when left out and standard input is a terminal.")
        var password: String?

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let password = try password ?? Self.promptForPassword()
            try await storage.withApplication { app in
                try await LocifyApp.createUser(in: app, email: email, name: name, password: password)
            }
            print("Created the account \(email.lowercased()).")
        }

        static func promptForPassword() throws -> String {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationError("--password is required when standard input is not a terminal.")
            }
            guard let first = getpass("Password: ").map({ String(cString: $0) }),
                let second = getpass("Repeat password: ").map({ String(cString: $0) })
            else {
                throw ValidationError("Could not read the password.")
            }
            guard first == second else { throw ValidationError("The passwords do not match.") }
            return first
        }
    }
}
