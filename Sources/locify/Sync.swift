import ArgumentParser
import LocifyServer

extension Locify {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Look at the sync feed of an account.", subcommands: [Status.self])
    }
}

extension Locify.Sync {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Print an account's revision, horizon, tombstones, records and the clients that pushed.",
            discussion: """
                The revision is the account's latest change; the horizon the newest revision whose deletions \
                were let go (LOCIFY_SYNC_RETENTION_DAYS): a client whose cursor is older downloads everything \
                again.
                """)

        @Option(help: "Email of the account.")
        var email: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let status = try await storage.withApplication { app in
                try await LocifyApp.syncStatus(in: app, email: email)
            }
            for line in status.lines { print(line) }
        }
    }
}
