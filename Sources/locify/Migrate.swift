import ArgumentParser
import LocifyServer

extension Locify {
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date.")

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let config = try storage.commandConfig()
            try await LocifyApp.withApplication(config: config) { _ in }
            print("The database is up to date (\(config.storage.kindName)).")
        }
    }
}
