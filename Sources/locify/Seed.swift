import ArgumentParser
import LocifyServer

extension Locify {
    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed", abstract: "Fill an account with sample data, or take it away again.",
            discussion: """
                --demo adds a dozen people with their phone numbers, addresses in several countries, \
                birthdays and reminders in the coming week, notes, tasks and photos, and saved places in every \
                category in Lyon, Berlin, London and Kyoto. Running it again adds only what is missing. \
                --remove deletes what the sample data added, edited or not, and nothing else.
                """)

        @Flag(help: "Add the sample people and places.")
        var demo = false

        @Flag(help: "With --demo: the people alone (names, birthdays, e-mails), nothing else.")
        var peopleOnly = false

        @Flag(help: "Delete the sample people and places from the account.")
        var remove = false

        @Option(help: "Email of the account.")
        var email: String

        @OptionGroup var storage: StorageOptions

        func validate() throws {
            guard demo != remove else { throw ValidationError("Say what to do: --demo or --remove.") }
            if peopleOnly && !demo { throw ValidationError("--people-only goes with --demo.") }
        }

        func run() async throws {
            let message = try await storage.withApplication { app in
                remove
                    ? try await LocifyApp.removeSampleData(in: app, email: email)
                    : try await LocifyApp.fillWithSampleData(in: app, email: email, peopleOnly: peopleOnly)
            }
            print(message)
        }
    }
}
