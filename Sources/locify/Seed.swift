import ArgumentParser
import LocifyServer

extension Locify {
    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed", abstract: "Fill an account with sample data.")

        @Flag(help: "Add a dozen realistic sample contacts.")
        var demo = false

        @Option(help: "Email of the account to fill.")
        var email: String

        @OptionGroup var storage: StorageOptions

        func validate() throws {
            guard demo else { throw ValidationError("Say what to seed: --demo.") }
        }

        func run() async throws {
            let (created, skipped) = try await storage.withApplication { app in
                try await LocifyApp.seedDemo(in: app, email: email)
            }
            print("Added \(created) sample contacts\(skipped > 0 ? " (\(skipped) already there)" : "").")
        }
    }
}
