import Fluent
import Foundation
import SQLKit
import XCTVapor

@testable import LocifyServer

/// The read path's row reader gives the same values on SQLite (read from the driver's data) and
/// PostgreSQL (read through SQLKit), and names the column when a value is missing or of another kind.
final class PlainRowTests: XCTestCase {
    func testEveryKindOfValueAndNullReadsTheSameOnBothDatabases() async throws {
        try await forEachDatabase { app, _, database in
            let sql = try app.db.sqlDatabase()
            let uuidType = database == .postgres ? "UUID" : "TEXT"
            try await sql.raw(
                """
                CREATE TABLE "probes" ("t" TEXT, "i" BIGINT, "b" BOOLEAN, "d" TIMESTAMPTZ, \
                "u" \(unsafeRaw: uuidType))
                """
            ).run()
            let instant = Date(timeIntervalSince1970: 1_714_817_165)
            let uuid = UUID(uuidString: "4A7C2E1B-0D3F-4C5A-9B8E-6F1D2C3B4A59") ?? UUID()
            try await sql.raw(
                """
                INSERT INTO "probes" VALUES (\(bind: "Zoë \"Q\" 😀"), \(bind: 42), \(bind: true), \(bind: instant), \
                \(bind: uuid)), (NULL, NULL, NULL, NULL, NULL)
                """
            ).run()
            let rows = try await app.db.plainRows(
                #"SELECT "t", "i", "b", "d", "u" FROM "probes" ORDER BY "i" IS NULL"#,
                columns: ["t", "i", "b", "d", "u"])
            XCTAssertEqual(rows.count, 2)
            let filled = rows[0]
            XCTAssertEqual(try filled.requiredText(0), "Zoë \"Q\" 😀")
            XCTAssertEqual(try filled.requiredInteger(1), 42)
            XCTAssertEqual(try filled.requiredBool(2), true)
            XCTAssertEqual(
                try filled.requiredDate(3).timeIntervalSince1970, instant.timeIntervalSince1970, accuracy: 0.001)
            XCTAssertEqual(try filled.requiredUUID(4), uuid)
            let empty = rows[1]
            XCTAssertNil(try empty.text(0))
            XCTAssertNil(try empty.integer(1))
            XCTAssertNil(try empty.bool(2))
            XCTAssertNil(try empty.date(3))
            XCTAssertNil(try empty.uuid(4))
            XCTAssertThrowsError(try empty.requiredText(0)) {
                XCTAssertEqual(String(describing: $0), "column t does not hold a value (it is NULL)")
            }
        }
    }

    func testAValueOfAnotherKindIsAnErrorNamingTheColumn() async throws {
        // SQLite only: its values are read by PlainRow itself, which names the column; PostgreSQL's are
        // decoded by its driver, whose error is its own (and types its columns, so the case is rarer).
        try await withApp(.sqlite) { app, _ in
            let rows = try await app.db.plainRows(#"SELECT 'not a number' AS "n""#, columns: ["n"])
            XCTAssertThrowsError(try rows.first?.integer(0)) {
                XCTAssertEqual(String(describing: $0), "column n does not hold an integer")
            }
        }
    }

    /// PostgreSQL reads rows straight from its driver when the driver takes every bind itself, and
    /// through SQLKit otherwise (a NULL bind): both give the same values. A computed average comes as
    /// numeric there, and still reads as a number.
    func testBothOfPostgreSQLsPathsAndAComputedNumberRead() async throws {
        try await forEachDatabase { app, _, _ in
            let sql = try app.db.sqlDatabase()
            try await sql.raw(#"CREATE TABLE "probes" ("t" TEXT, "i" BIGINT)"#).run()
            try await sql.raw(#"INSERT INTO "probes" VALUES ('one', 1), ('two', 2), (NULL, 4)"#).run()
            let missing: String? = nil
            for bound in [SQLQueryString(#"\#(bind: "none")"#), SQLQueryString(#"\#(bind: missing)"#)] {
                let rows = try await app.db.plainRows(
                    """
                    SELECT "t", "i", (SELECT AVG("i") FROM "probes") AS "average" FROM "probes" \
                    WHERE "t" IS NULL OR "t" <> COALESCE(\(bound), 'none') ORDER BY "i"
                    """, columns: ["t", "i", "average"])
                XCTAssertEqual(try rows.map { try $0.text(0) }, ["one", "two", nil])
                XCTAssertEqual(try rows.map { try $0.requiredInteger(1) }, [1, 2, 4])
                XCTAssertEqual(try rows.first?.requiredDouble(2) ?? 0, 7.0 / 3, accuracy: 0.000_001)
            }
        }
    }
}
