import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import XCTVapor

@testable import LocifyServer

/// `SQLiteSchemaSnapshot` against the migrations it stands for. After adding a migration, run
/// `LOCIFY_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests` to write the snapshot anew.
final class SchemaSnapshotTests: XCTestCase {
    func testTheSQLiteSchemaSnapshotIsWhatTheMigrationsMake() async throws {
        let migrated = try await newDatabase(usesSnapshot: false)
        if ProcessInfo.processInfo.environment["LOCIFY_WRITE_SCHEMA_SNAPSHOT"] == "1" {
            try Self.writeSnapshot(statements: migrated.statements, migrations: migrated.log.map(\.name))
        }
        let advice = "the migrations changed: LOCIFY_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests"
        XCTAssertEqual(SQLiteSchemaSnapshot.migrations, locifyMigrations.map(\.logName), advice)
        XCTAssertEqual(SQLiteSchemaSnapshot.statements, migrated.statements, advice)

        let snapshotted = try await newDatabase(usesSnapshot: true)
        XCTAssertEqual(snapshotted.objects, migrated.objects, "the same tables, indexes, triggers, in the same words")
        XCTAssertEqual(snapshotted.log.map(\.name), migrated.log.map(\.name))
        XCTAssertEqual(snapshotted.log.map(\.batch), Array(repeating: 1, count: locifyMigrations.count))
        XCTAssertEqual(snapshotted.filledTables, migrated.filledTables)
        XCTAssertEqual(migrated.filledTables, ["_fluent_migrations"])
    }

    func testMigrationsAreLoggedUnderFluentsNames() {
        for migration in locifyMigrations + [AddLaterTable()] {
            XCTAssertEqual(migration.logName, migration.name)
        }
    }

    func testAMigrationNewerThanTheSnapshotRunsAfterIt() async throws {
        let database = try await newDatabase(usesSnapshot: true, migrations: locifyMigrations + [AddLaterTable()])
        XCTAssertEqual(database.log.map(\.name), locifyMigrations.map(\.logName) + [AddLaterTable().name])
        XCTAssertTrue(database.objects.contains { $0.hasPrefix("table later_table ") })
    }

    func testTheSnapshotIsNotUsedOnADatabaseThatHasTablesAlready() async throws {
        // A database with a table of its own but no migration log: the migrations run as ever, and the
        // table stays.
        let database = try await newDatabase(
            usesSnapshot: true, before: #"CREATE TABLE "someone_elses" ("id" INTEGER)"#)
        XCTAssertTrue(database.objects.contains { $0.hasPrefix("table someone_elses ") })
        XCTAssertEqual(database.log.map(\.name), locifyMigrations.map(\.logName))
    }

    func testAnUpgradeMovesTheFilesOfWaitingImportsToTheirOwnTable() async throws {
        // SQLite only: the move is about rows an older version left; every PostgreSQL test database runs
        // the same migration on its first start.
        try await withUnmigratedSQLiteFileApp { app in
            try await app.migrateDatabase(Self.migrations(before: MovePlaceImportFiles.self), usesSnapshot: false)
            let sql = try app.db.sqlDatabase()
            try await sql.raw(
                """
                INSERT INTO "users" ("uuid", "email", "name", "password_hash", "timezone", "maps_app", \
                "created_at", "updated_at") VALUES (\(bind: UUID()), 'up@example.com', 'Up', 'x', 'UTC', 'osm', 0, 0)
                """
            ).run()
            for (status, file) in [("queued", "name,lat\n"), ("done", "")] {
                try await sql.raw(
                    """
                    INSERT INTO "place_imports" ("user_id", "status", "file_name", "file", "processed", "total", \
                    "created_at", "updated_at") VALUES (1, \(bind: status), 'f.csv', \(bind: Data(file.utf8)), 0, 1, 0, 0)
                    """
                ).run()
            }
            try await app.migrateDatabase()
            let files = try await app.db.plainRows(
                #"SELECT "import_id", "file" FROM "place_import_files""#, columns: ["import_id", "file"])
            XCTAssertEqual(try files.map { try $0.requiredInteger(0) }, [1], "only the waiting import's file")
            XCTAssertEqual(try files.first?.bytes(1), Array("name,lat\n".utf8))
            let columns = try await app.db.plainRows(
                #"SELECT "name" FROM pragma_table_info('place_imports')"#, columns: ["name"])
            XCTAssertFalse(try columns.map { try $0.requiredText(0) }.contains("file"))
        }
    }

    func testAnUpgradeMovesTheRowsOfKeptReportsToTheirOwnTable() async throws {
        // SQLite only, as above: the rows an older version kept inside its reports.
        try await withUnmigratedSQLiteFileApp { app in
            try await app.migrateDatabase(Self.migrations(before: CreatePlaceImportRows.self), usesSnapshot: false)
            let sql = try app.db.sqlDatabase()
            try await sql.raw(
                """
                INSERT INTO "users" ("uuid", "email", "name", "password_hash", "timezone", "maps_app", \
                "created_at", "updated_at") VALUES (\(bind: UUID()), 'up@example.com', 'Up', 'x', 'UTC', 'osm', 0, 0)
                """
            ).run()
            let report = PlaceImportReportResource(
                format: "csv", dryRun: false,
                rows: [
                    .init(row: 1, name: "Harbour", outcome: "created", placeID: 7, reason: nil),
                    .init(row: 2, name: "Nowhere", outcome: "skipped", placeID: nil, reason: "It has no position."),
                ], unreadable: [.init(record: 4, reason: "Not a number.")])
            // As an older version kept it: the whole report, rows included, in one text.
            let whole = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
            try await sql.raw(
                """
                INSERT INTO "place_imports" ("user_id", "status", "file_name", "processed", "total", "report", \
                "created_at", "updated_at") VALUES (1, 'done', 'f.csv', 3, 3, \(bind: whole), 0, 0)
                """
            ).run()
            try await app.migrateDatabase()
            let store = PlaceImportStore(database: app.db, ownerID: 1, now: { Date() }, cpuWork: app.cpuWork)
            let moved = try await store.rows(of: 1, page: PageSelection(limit: 10))
            XCTAssertEqual(moved.rows, report.rows)
            XCTAssertEqual(moved.window.total, 2)
            let kept = try await store.record(1).report
            XCTAssertEqual(kept?.rows, [], "the report keeps only its counts and unreadable records")
            XCTAssertEqual(kept.map { [$0.created, $0.merged, $0.skipped] }, [1, 0, 2])
            XCTAssertEqual(kept?.unreadable, report.unreadable)
        }
    }

    /// The migrations an older version had run: those before `migration`.
    private static func migrations(before migration: any Migration.Type) -> [any Migration] {
        Array(locifyMigrations.prefix { type(of: $0) != migration })
    }

    private struct Made {
        /// Every object of `sqlite_master` as "type name table: sql", sorted.
        var objects: [String]
        /// The statements that make the schema again, in the order SQLite made the objects.
        var statements: [String]
        var log: [(name: String, batch: Int)]
        var filledTables: [String]
    }

    struct AddLaterTable: AsyncMigration {
        func prepare(on database: any Database) async throws {
            try await database.schema("later_table").field("id", .int, .identifier(auto: true)).create()
        }
        func revert(on database: any Database) async throws { try await database.schema("later_table").delete() }
    }

    private func newDatabase(
        usesSnapshot: Bool, migrations: [any Migration] = locifyMigrations, before: String? = nil
    ) async throws -> Made {
        try await withUnmigratedSQLiteFileApp { app in
            if let before { try await app.db.sqlDatabase().raw(SQLQueryString(before)).run() }
            try await app.migrateDatabase(migrations, usesSnapshot: usesSnapshot)
            return try await Self.describe(app.db)
        }
    }

    private static func describe(_ database: any Database) async throws -> Made {
        let rows = try await database.plainRows(
            #"SELECT "type", "name", "tbl_name", "sql" FROM "sqlite_master" ORDER BY "rowid""#,
            columns: ["type", "name", "tbl_name", "sql"])
        var objects: [String] = []
        var statements: [String] = []
        var virtualTables: [String] = []
        var tables: [String] = []
        for row in rows {
            let (type, name, table, sql) = (
                try row.requiredText(0), try row.requiredText(1), try row.requiredText(2), try row.text(3)
            )
            objects.append("\(type) \(name) \(table): \(sql ?? "")")
            if type == "table" { tables.append(name) }
            // SQLite makes the indexes of UNIQUE constraints, its own tables and a virtual table's
            // shadow tables itself.
            let isShadowTable = type == "table" && virtualTables.contains { name.hasPrefix($0 + "_") }
            guard let sql, !name.hasPrefix("sqlite_"), !isShadowTable else { continue }
            if sql.hasPrefix("CREATE VIRTUAL TABLE") { virtualTables.append(name) }
            statements.append(sql)
        }
        var filled: [String] = []
        // A virtual table's shadow tables are SQLite's own business: a new FTS5 index writes its empty
        // structure record when it is made or at its first write, empty either way.
        for table in tables where !virtualTables.contains(where: { table == $0 || table.hasPrefix($0 + "_") }) {
            let count = try await database.plainRows(
                SQLQueryString(#"SELECT COUNT(*) AS "n" FROM "\#(table)""#), columns: ["n"])
            if try count.first?.requiredInteger(0) != 0 { filled.append(table) }
        }
        let log = try await database.plainRows(
            #"SELECT "name", "batch" FROM "_fluent_migrations" ORDER BY "rowid""#, columns: ["name", "batch"])
        return Made(
            objects: objects.sorted(), statements: statements,
            log: try log.map { (try $0.requiredText(0), try $0.requiredInteger(1)) }, filledTables: filled.sorted())
    }

    private static func writeSnapshot(statements: [String], migrations: [String]) throws {
        func literal(_ text: String) throws -> String {
            guard !text.contains("\"#"), !text.contains("\n") else {
                throw CommandFailure("a statement the snapshot cannot spell as a raw string: \(text)")
            }
            return "#\"\(text)\"#"
        }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/LocifyServer/Operations/SQLiteSchemaSnapshot+Statements.swift")
        let text = """
            // Written by `LOCIFY_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests` from the schema
            // the migrations make; do not edit by hand.

            extension SQLiteSchemaSnapshot {
                /// The migrations the statements stand for, as Fluent logs them, in order.
                static let migrations: [String] = [
            \(try migrations.map { "        \(try literal($0))," }.joined(separator: "\n"))
                ]

                /// The statements, in the order SQLite made the objects (a table before its indexes).
                static let statements: [String] = [
            \(try statements.map { "        \(try literal($0))," }.joined(separator: "\n"))
                ]
            }

            """
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}
