import ArgumentParser
import Foundation
import LocifyCore
import LocifyServer

extension Locify {
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a consistent, compressed snapshot of the whole database, while the server runs.",
            discussion: """
                SQLite is copied with VACUUM INTO and PostgreSQL with pg_dump (on PATH, of the server's version \
                or newer), each in one transaction: the snapshot is the database at one moment, and the server \
                goes on serving. Photos and documents are in the database, so in the backup. Bring it back with \
                `locify restore FILE` into an empty database.
                """)

        @Option(name: .shortAndLong, help: "Where to write it (default locify-backup-<date>-<time>.zip here).")
        var output: String?

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let destination = URL(fileURLWithPath: output ?? Self.defaultName(Date()))
            let outcome = try await storage.withApplication { app in
                try await DatabaseBackup.write(of: app, to: destination) { line in print(line) }
            }
            print(String(format: "Backup written in %.1f s.", outcome.seconds))
        }

        static func defaultName(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd-HHmmss"
            return "locify-backup-\(formatter.string(from: date)).zip"
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Bring a backup back into an empty database, then run the migrations since.",
            discussion: """
                The database must be empty: on SQLite no locify.sqlite with tables in the data directory (stop \
                the server and move the old file away), on PostgreSQL a new database (createdb) named by \
                DATABASE_URL. A backup of SQLite goes back into SQLite, one of PostgreSQL into PostgreSQL.
                """)

        @Argument(help: "The backup file, from `locify backup`.")
        var file: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            Output.bootstrapLogging(defaultLevel: .warning)
            let config = try storage.config()
            let source = URL(fileURLWithPath: file)
            let outcome = try await Output.run {
                try await DatabaseBackup.restore(from: source, config: config) { line in print(line) }
            }
            print(String(format: "Restored in %.1f s.", outcome.seconds))
        }
    }
}
