import Fluent
import Foundation
import LocifyCore
import NIOCore
import NIOPosix
import SQLKit
import Vapor

/// A failure of a command-line operation, worded for the person at the terminal.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The application type, named for the executable, which does not import Vapor (its names clash
/// with the argument parser's).
public typealias LocifyApplication = Application

/// How the executable runs the server and its one-shot commands.
public enum LocifyApp {
    /// Runs Swift concurrency's tasks on the server's event loops instead of a separate thread pool, so
    /// an async handler does not hop threads twice per request. Call it first thing in `main`; it
    /// answers false when it came too late and changed nothing.
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Runs the server until SIGTERM or SIGINT, then lets in-flight requests finish and closes the database.
    public static func serve(config: LocifyConfig, announce: @Sendable (String) -> Void) async throws {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        do {
            try await configure(app, config: config)
            try await app.migrateDatabase()
            // Starts the HTTP server; Vapor's serve command also installs the SIGTERM/SIGINT handlers.
            try await app.startup()
            let port = app.http.server.shared.localAddress?.port ?? config.port
            announce(
                "Locify \(LocifyConfig.version) is listening on http://\(config.host):\(port) (database: \(config.storage.kindName))"
            )
            try await app.running?.onStop.get()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        // Stops accepting connections, lets requests in flight finish, then closes the database.
        try await app.asyncShutdown()
        announce("Locify stopped cleanly.")
    }

    /// Runs `body` against a configured, migrated application that serves no requests.
    public static func withApplication<Result: Sendable>(
        config: LocifyConfig, _ body: @Sendable (Application) async throws -> Result
    ) async throws -> Result {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        do {
            try await configure(app, config: config)
            try await app.migrateDatabase()
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}

extension Application {
    /// Runs the pending migrations. On SQLite they run in one transaction: each statement committed on
    /// its own waited for the disk, which was most of a first start (about 150 of 250 ms), and an upgrade
    /// that fails half-way now leaves the database as it was. PostgreSQL runs them one at a time, as
    /// Fluent does: a statement that fails there (pg_trgm that cannot be created, which a migration
    /// allows for) would abort a shared transaction.
    func migrateDatabase() async throws {
        guard let sql = db as? any SQLDatabase, sql.dialect.name == "sqlite" else {
            return try await autoMigrate()
        }
        let migrations = self.migrations
        let level = fluent.migrationLogLevel
        try await db.transaction { transaction in
            let migrator = Migrator(
                databaseFactory: { _ in transaction }, migrations: migrations, on: transaction.eventLoop,
                migrationLogLevel: level)
            try await migrator.setupIfNeeded().flatMap { migrator.prepareBatch() }.get()
        }
    }
}
