import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import XCTVapor

@testable import LocifyServer

/// `locify backup` and `locify restore`: a backup taken while an account is being written to comes back
/// whole into an empty database, table for table.
final class BackupTests: XCTestCase {
    func testABackupOfABusyAccountRestoresEveryTable() async throws {
        for database in PostgresCluster.testedDatabases {
            try await withBackupPair(database) { source, target in
                let clock = TestClock()
                let directory = try temporaryDirectory()
                defer { try? FileManager.default.removeItem(at: directory) }
                try await withInstance(storage: source, clock: clock, emptiesDatabase: true) { app in
                    let account = try await app.makeAccount()
                    _ = try await LocifyApp.fillWithSampleData(in: app, email: account.email)
                    let quiet = directory.appendingPathComponent("quiet.zip")
                    let lines = NIOLockedValueBox<[String]>([])
                    let outcome = try await DatabaseBackup.write(of: app, to: quiet) { line in
                        lines.withLockedValue { $0.append(line) }
                    }
                    XCTAssertEqual(outcome.manifest.database, database.rawValue)
                    XCTAssertEqual(outcome.manifest.migrations, locifyMigrations.count)
                    XCTAssertEqual(lines.withLockedValue { $0 }.count, 2, "each step is said")
                    let before = try await Self.everyTable(of: app.db)
                    XCTAssertGreaterThan(before["contacts"]?.count ?? 0, 10, "\(database): the sample data is in")
                    XCTAssertGreaterThan(before["photo_blobs"]?.count ?? 0, 0, "pictures too")

                    // Busy: contacts keep coming while the second backup is taken.
                    let written = NIOLockedValueBox(0)
                    let stop = NIOLockedValueBox(false)
                    let writer = Task {
                        var number = 0
                        while !stop.withLockedValue({ $0 }) {
                            number += 1
                            let response = try await app.send(
                                .POST, "/api/contacts", headers: account.bearer,
                                json: #"{"first_name":"Busy \#(number)","is_birthdate_known":false}"#)
                            XCTAssertEqual(response.status, .created)
                            written.withLockedValue { $0 += 1 }
                        }
                    }
                    while written.withLockedValue({ $0 }) < 5 { try await Task.sleep(for: .milliseconds(5)) }
                    let busy = directory.appendingPathComponent("busy.zip")
                    _ = try await DatabaseBackup.write(of: app, to: busy) { _ in }
                    let writtenDuringBackup = written.withLockedValue { $0 }
                    stop.withLockedValue { $0 = true }
                    try await writer.value
                    let after = try await Self.everyTable(of: app.db)

                    let restoredOutcome = try await DatabaseBackup.restore(from: busy, config: target.config) { _ in }
                    XCTAssertEqual(restoredOutcome.manifest.createdAt, clock.now)
                    try await withInstance(storage: target.storage, clock: clock, emptiesDatabase: false) { restored in
                        let tables = try await Self.everyTable(of: restored.db)
                        XCTAssertEqual(Set(tables.keys), Set(after.keys), "\(database): every table came back")
                        let contacts = tables["contacts"] ?? []
                        XCTAssertGreaterThanOrEqual(contacts.count, (before["contacts"]?.count ?? 0) + 5)
                        XCTAssertLessThanOrEqual(
                            contacts.count, (before["contacts"]?.count ?? 0) + writtenDuringBackup + 1)
                        // One moment: every row restored is a row the source had, as it had it, in every table
                        // the busy writer adds to and never changes.
                        for (table, rows) in tables where !["users", "_fluent_migrations", "leases"].contains(table) {
                            XCTAssertTrue(
                                Set(rows).isSubset(of: Set(after[table] ?? [])), "\(database): \(table) rows match")
                        }
                        // And the account's revision counter is the newest revision among its restored rows.
                        let revisions = try await restored.db.plainRows(
                            #"""
                            SELECT "users"."revision", (SELECT MAX("revision") FROM "contacts") FROM "users"
                            """#, columns: ["counter", "newest"])
                        XCTAssertEqual(
                            try revisions.first?.requiredInteger(0), try revisions.first?.requiredInteger(1),
                            "\(database): the counter and the rows are of the same moment")
                        let me = try await restored.send(.GET, "/api/me", headers: account.bearer)
                        XCTAssertEqual(me.status, .ok, "the restored server lets the account in")
                    }
                    // The quiet backup, restored over an empty database again, is the source table for table.
                    try await target.empty()
                    _ = try await DatabaseBackup.restore(from: quiet, config: target.config) { _ in }
                    try await withInstance(storage: target.storage, clock: clock, emptiesDatabase: false) { restored in
                        let tables = try await Self.everyTable(of: restored.db)
                        for (table, rows) in before {
                            XCTAssertEqual(rows, tables[table], "\(database): \(table) is as it was")
                        }
                    }
                    do {
                        _ = try await DatabaseBackup.restore(from: quiet, config: target.config) { _ in }
                        XCTFail("restoring over a database with tables must fail")
                    } catch let failure as CommandFailure {
                        XCTAssertTrue(
                            failure.description.contains("a backup is restored into an empty one"), "\(failure)")
                    }
                    let notABackup = directory.appendingPathComponent("notes.zip")
                    try Data("not a zip".utf8).write(to: notABackup)
                    do {
                        _ = try await DatabaseBackup.restore(from: notABackup, config: target.config) { _ in }
                        XCTFail("a file that is no backup must fail")
                    } catch let failure as CommandFailure {
                        XCTAssertEqual(
                            failure.description, "\(notABackup.path) is not a Locify backup: it is not a zip archive.")
                    }
                }
            }
        }
    }

    func testABackupGoesBackOnlyIntoADatabaseOfItsKind() async throws {
        guard PostgresCluster.testedDatabases.contains(.postgres) else { return }
        try await withBackupPair(.sqlite) { source, _ in
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("sqlite.zip")
            try await withInstance(storage: source, clock: TestClock(), emptiesDatabase: true) { app in
                _ = try await DatabaseBackup.write(of: app, to: file) { _ in }
            }
            let postgres = LocifyConfig(
                dataDirectory: directory, storage: .postgres(url: try await PostgresCluster.shared.databaseURL()),
                preloadsGazetteer: false, workers: 0)
            do {
                _ = try await DatabaseBackup.restore(from: file, config: postgres) { _ in }
                XCTFail("a SQLite backup must not go into PostgreSQL")
            } catch let failure as CommandFailure {
                XCTAssertTrue(
                    failure.description.hasPrefix("This backup is of a sqlite database, and this server uses postgres"),
                    failure.description)
            }
        }
    }

    /// Where a restore goes: an empty database of the source's kind.
    struct RestoreTarget {
        let storage: LocifyConfig.Storage
        let config: LocifyConfig
        let empty: () async throws -> Void
    }

    /// A source database (file-backed SQLite, or the test cluster's PostgreSQL) and an empty one of the same
    /// kind to restore into, removed afterwards.
    private func withBackupPair(
        _ database: TestDatabase, _ body: (LocifyConfig.Storage, RestoreTarget) async throws -> Void
    ) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        switch database {
        case .sqlite:
            let target = directory.appendingPathComponent("restored/locify.sqlite")
            let storage = LocifyConfig.Storage.sqlite(path: target.path)
            try await body(
                .sqlite(path: directory.appendingPathComponent("source.sqlite").path),
                RestoreTarget(
                    storage: storage,
                    config: LocifyConfig(
                        dataDirectory: target.deletingLastPathComponent(), storage: storage, preloadsGazetteer: false,
                        workers: 0),
                    empty: {
                        for suffix in ["", "-wal", "-shm"] {
                            try? FileManager.default.removeItem(atPath: target.path + suffix)
                        }
                    }))
        case .postgres:
            let url = try await PostgresCluster.shared.databaseURL()
            guard var components = URLComponents(string: url) else { throw CommandFailure("bad test URL") }
            let name = "locify_restore_test"
            components.path = "/" + name
            let targetURL = try XCTUnwrap(components.string)
            let admin = try await Self.administration(url)
            let recreate = {
                try await admin.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run()
                try await admin.raw("CREATE DATABASE \(ident: name)").run()
            }
            try await recreate()
            let storage = LocifyConfig.Storage.postgres(url: targetURL)
            try await body(
                .postgres(url: url),
                RestoreTarget(
                    storage: storage,
                    config: LocifyConfig(
                        dataDirectory: directory, storage: storage, preloadsGazetteer: false, workers: 0),
                    empty: recreate))
            try await admin.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run()
        }
    }

    /// A connection to the test cluster for creating and dropping databases, kept for the test run.
    private static func administration(_ url: String) async throws -> any SQLDatabase {
        let app = try await Application.make(.testing)
        keptApplications.withLockedValue { $0.append(app) }
        app.databases.use(try .postgres(url: url), as: .psql)
        return try XCTUnwrap(app.db as? any SQLDatabase)
    }

    private static let keptApplications = NIOLockedValueBox<[Application]>([])

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locify-backup-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every table's rows, each written out whole as text by the database itself, in a fixed order.
    static func everyTable(of database: any Database) async throws -> [String: [String]] {
        let sql = try database.sqlDatabase()
        var tables: [String: [String]] = [:]
        if sql.dialect.name == "sqlite" {
            let names = try await database.plainRows(
                #"""
                SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%' \#
                AND "sql" NOT LIKE 'CREATE VIRTUAL TABLE%'
                """#, columns: ["name"]
            ).map { try $0.requiredText(0) }
            for name in names {
                let columns = try await database.plainRows(
                    #"SELECT "name" FROM pragma_table_info(\#(bind: name))"#, columns: ["name"]
                ).map { try $0.requiredText(0) }
                let row = columns.map { #"quote("\#($0)")"# }.joined(separator: " || ',' || ")
                tables[name] = try await database.plainRows(
                    SQLQueryString(#"SELECT \#(row) AS "row" FROM "\#(name)""#), columns: ["row"]
                ).map { try $0.requiredText(0) }.sorted()
            }
        } else {
            let names = try await database.plainRows(
                #"SELECT "tablename" FROM "pg_tables" WHERE "schemaname" = current_schema()"#, columns: ["name"]
            ).map { try $0.requiredText(0) }
            for name in names {
                tables[name] = try await database.plainRows(
                    SQLQueryString(#"SELECT "t"::text AS "row" FROM "\#(name)" AS "t""#), columns: ["row"]
                ).map { try $0.requiredText(0) }.sorted()
            }
        }
        return tables
    }
}
