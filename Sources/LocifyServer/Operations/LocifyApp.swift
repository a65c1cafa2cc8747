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
        // Stops accepting connections and lets requests in flight finish first: Vapor's own shutdown closes
        // the database (a lifecycle handler) before it stops the HTTP server (kept in its storage), and a
        // request arriving in between found no database and stopped the process (a browser keeping its
        // pages for offline use sends a steady stream of them).
        await app.server.shutdown()
        // Then closes the database and the rest.
        try await app.asyncShutdown()
        announce("Locify stopped cleanly.")
    }

    /// Runs `body` against the database `config` names as it is, migrating nothing (a restore asks
    /// whether it is empty first).
    static func withUnmigratedDatabase<Result: Sendable>(
        config: LocifyConfig, _ body: @Sendable (any Database) async throws -> Result
    ) async throws -> Result {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        return try await app.shuttingDown { app in
            try await configure(app, config: config)
            return try await body(app.db)
        }
    }

    /// Runs `body` against a configured, migrated application that serves no requests.
    public static func withApplication<Result: Sendable>(
        config: LocifyConfig, _ body: @Sendable (Application) async throws -> Result
    ) async throws -> Result {
        let app = try await Application.make(Environment(name: "production", arguments: ["locify"]))
        return try await app.shuttingDown { app in
            try await configure(app, config: config)
            try await app.migrateDatabase()
            return try await body(app)
        }
    }
}

extension Application {
    /// Runs `body` with this application, then shuts it down, whether `body` threw or not.
    func shuttingDown<Result>(after body: (Application) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
        } catch {
            try? await asyncShutdown()
            throw error
        }
        try await asyncShutdown()
        return result
    }
}

extension Migration {
    /// The name Fluent logs a migration under (its `name`: the type's qualified name), made without the
    /// dynamic casts `String(reflecting:)` tries on each type first. Each cast to a protocol a type was
    /// not yet checked against scans every conformance the program has; for the 32 migrations that was
    /// about a tenth of a first start's CPU.
    var logName: String { _typeName(Self.self, qualified: true) }
}

extension Application {
    /// Runs the pending migrations of `migrations` (the app's own unless a test adds to them). A new
    /// SQLite database gets the schema they make at once, from `SQLiteSchemaSnapshot` (unless
    /// `usesSnapshot` is false), and runs only those the snapshot does not cover. On SQLite they run in
    /// one transaction: each statement committed on its own waited for the disk, which was
    /// most of a first start (about 150 of 250 ms), and an upgrade that fails half-way leaves the database
    /// as it was. PostgreSQL runs them one at a time, as Fluent does: a statement that fails there
    /// (pg_trgm that cannot be created, which a migration allows for) would abort a shared transaction.
    func migrateDatabase(_ migrations: [any Migration] = locifyMigrations, usesSnapshot: Bool = true) async throws {
        let applied = try await appliedMigrations()
        let pending = migrations.filter { !(applied?.contains($0.logName) ?? false) }
        if pending.isEmpty { return }
        // Each step logged as soon as it is done, in one batch, as Fluent's migrator does; its own log
        // table is made as the migrator makes it, so `locify migrate` and Fluent agree.
        @Sendable func run(on database: any Database, oneByOne: Bool) async throws {
            if applied == nil { try await MigrationLog.migration.prepare(on: database).get() }
            let batch = try await Self.nextBatch(on: database)
            for step in oneByOne ? pending.map({ [$0] }) : [pending] {
                for migration in step { try await migration.prepare(on: database).get() }
                try await Self.record(step, batch: batch, on: database)
            }
        }
        guard try db.sqlDatabase().dialect.name == "sqlite" else {
            return try await run(on: db, oneByOne: true)
        }
        try await db.transaction { transaction in
            guard applied == nil, usesSnapshot,
                let made = try await SQLiteSchemaSnapshot.make(for: pending, on: transaction)
            else { return try await run(on: transaction, oneByOne: false) }
            let rest = pending.dropFirst(made.count)
            for migration in rest { try await migration.prepare(on: transaction).get() }
            try await Self.record(made + rest, batch: 1, on: transaction)
        }
    }

    private static func nextBatch(on database: any Database) async throws -> Int {
        let rows = try await database.plainRows(
            #"SELECT MAX("batch") FROM "_fluent_migrations""#, columns: ["batch"])
        return (try rows.first?.integer(0) ?? 0) + 1
    }

    /// The migrations run, in Fluent's log in one statement: its migrator saved each through its model,
    /// a third of a first start's migrations.
    private static func record(_ migrations: [any Migration], batch: Int, on database: any Database) async throws {
        let now = Date()
        let rows = migrations.map { migration -> SQLQueryString in
            "(\(bind: UUID()), \(bind: migration.logName), \(literal: batch), \(bind: now), \(bind: now))"
        }
        try await database.sqlDatabase().raw(
            """
            INSERT INTO "_fluent_migrations" ("id", "name", "batch", "created_at", "updated_at") \
            VALUES \(rows.joined(separator: ", "))
            """
        ).run()
    }

    /// The names in Fluent's migration log, or nil when there is no log yet (a new database). Every
    /// start but the first finds them all there: one query says so, where Fluent's migrator took 23 ms of
    /// a 90 ms restart (Benchmarks/startup.sh) reading its log through its models.
    func appliedMigrations() async throws -> Set<String>? {
        let sql = try db.sqlDatabase()
        let tables =
            sql.dialect.name == "sqlite"
            ? #"SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' AND "name" = '_fluent_migrations'"#
            : #"SELECT "tablename" FROM "pg_tables" WHERE "tablename" = '_fluent_migrations' AND "schemaname" = current_schema()"#
        guard try await !db.plainRows(SQLQueryString(tables), columns: ["name"]).isEmpty else { return nil }
        let applied = try await db.plainRows(#"SELECT "name" FROM "_fluent_migrations""#, columns: ["name"])
        return Set(try applied.compactMap { try $0.text(0) })
    }
}
