import ArgumentParser
import LocifyServer

extension Locify {
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate", abstract: "Bring the database schema up to date.")

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let kind = try await storage.withApplication { app in app.locifyConfig.storage.kindName }
            print("The database is up to date (\(kind)).")
        }
    }
}
