import ArgumentParser
import Foundation
import LocifyServer
import Logging

/// Every command names itself (`commandName`): the argument parser otherwise derives each name from the
/// type through `String(describing:)`, whose dynamic casts scan every conformance in the program, and it
/// asks for all of them at every start.
@main
struct Locify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locify",
        abstract: "A self-hosted home for the people and places in your life.",
        discussion: """
            Without a subcommand, `locify` starts the server (`locify serve`). Configuration comes from \
            flags or environment variables: LOCIFY_HOST, LOCIFY_PORT, LOCIFY_DATA_DIR, DATABASE_URL, \
            LOCIFY_REGISTRATION, LOCIFY_BASE_URL, LOCIFY_LOG_LEVEL. See README.md for each.
            """,
        version: LocifyConfig.version,
        subcommands: [
            Serve.self, Migrate.self, User.self, Token.self, Seed.self, Import.self, Export.self, Sync.self,
            Bench.self, Client.self, Jobs.self, Backup.self, Restore.self,
        ],
        defaultSubcommand: Serve.self)

    static func main() async {
        // Before any task starts: the server's event loops then run the tasks too (see runTasksOnEventLoops).
        LocifyApp.runTasksOnEventLoops()
        await main(nil)
    }
}

/// Where the data lives; shared by every command that opens the database.
struct StorageOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Directory for the SQLite database and files (env: LOCIFY_DATA_DIR; default ./locify-data).")
    var dataDirectory: String?

    /// Runs a one-shot command against the migrated database: logs quieted to warnings on standard
    /// error, failures turned into a message and exit code 1.
    func withApplication<Result: Sendable>(_ body: @Sendable (LocifyApplication) async throws -> Result) async throws
        -> Result
    {
        Output.bootstrapLogging(defaultLevel: .warning)
        let config = try config()
        return try await Output.run {
            try await LocifyApp.withApplication(config: config, body)
        }
    }

    func config(host: String? = nil, port: Int? = nil) throws -> LocifyConfig {
        do {
            return try LocifyConfig.resolve(
                environment: ProcessInfo.processInfo.environment, host: host, port: port, dataDirectory: dataDirectory)
        } catch let problem as LocifyConfig.Problem {
            throw ValidationError(problem.description)
        }
    }
}

enum Output {
    /// Logs go to standard error so that scripts can read a command's result from standard output.
    static func bootstrapLogging(defaultLevel: Logger.Level) {
        let level =
            ProcessInfo.processInfo.environment["LOCIFY_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? defaultLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Runs a one-shot command, turning failures into a message and exit code 1.
    static func run<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("error: \(failure.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
