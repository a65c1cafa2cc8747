import ArgumentParser
import LocifyServer

extension Locify {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage personal API tokens.", subcommands: [Create.self])
    }
}

extension Locify.Token {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a personal API token.",
            discussion: "The token is printed alone on the last line of standard output; it is not stored and cannot be shown again.")

        @Option(help: "Email of the account the token acts for.")
        var email: String

        @Option(help: "A name for the token, to recognise it in Settings (e.g. \"Phone\").")
        var name: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            Output.bootstrapLogging(defaultLevel: .warning)
            let config = try storage.config()
            try await Output.run {
                let secret = try await LocifyApp.withApplication(config: config) { app in
                    try await LocifyApp.createToken(in: app, email: email, label: name)
                }
                print(secret)
            }
        }
    }
}
