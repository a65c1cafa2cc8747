import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import LocifyAPI
import LocifyCore
import SQLKit
import XCTVapor

@testable import LocifyServer

final class OperationsTests: XCTestCase {
    func testHealthNamesTheDatabase() async throws {
        try await forEachDatabase { app, _, database in
            let response = try await app.send(.GET, "/health")
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(
                response.text,
                #"{"status":"ok","database":"\#(database.rawValue)","version":"\#(LocifyConfig.version)"}"#)
            XCTAssertNotNil(response.headers.first(name: .xRequestId))
        }
    }

    /// The offline app asks `/health/live` before it sends a form: a database that cannot answer now
    /// (here one nobody listens for) makes `/health` unhealthy, but the server itself still answers.
    func testLivenessAnswersWithoutTheDatabase() async throws {
        try await forEachDatabase { app, _, _ in
            let live = try await app.send(.GET, "/health/live")
            XCTAssertEqual(live.status, .ok)
            XCTAssertEqual(live.text, #"{"status":"ok","version":"\#(LocifyConfig.version)"}"#)

            // The failures to come are expected: their error lines would only bury a real one in the test's output.
            app.logger.logLevel = .critical
            let unreachable = try SQLPostgresConfiguration(url: "postgres://nobody@127.0.0.1:1/none")
            app.databases.use(
                .postgres(configuration: unreachable), as: DatabaseID(string: "unreachable"), isDefault: true)
            let health = try await app.send(.GET, "/health")
            XCTAssertEqual(health.status, .serviceUnavailable)
            let stillLive = try await app.send(.GET, "/health/live")
            XCTAssertEqual(stillLive.status, .ok)
            XCTAssertEqual(stillLive.text, live.text)
        }
    }

    func testReadinessSaysWhyAnInstanceCannotServe() async throws {
        try await forEachDatabase { app, _, database in
            let ready = try await app.send(.GET, "/health/ready")
            XCTAssertEqual(ready.status, .ok, "\(database)")
            XCTAssertEqual(
                ready.text,
                #"{"status":"ok","database":"\#(database.rawValue)","version":"\#(LocifyConfig.version)"}"#)
            // A database an older version left behind: this one's newest migration is missing.
            let sql = try app.db.sqlDatabase()
            try await sql.raw(#"DELETE FROM "_fluent_migrations" WHERE "name" = 'LocifyServer.CreateLeases'"#).run()
            let behind = try await app.send(.GET, "/health/ready")
            XCTAssertEqual(behind.status, .serviceUnavailable)
            let count = locifyMigrations.count
            XCTAssertEqual(
                try behind.decoded(HealthResource.self).reason,
                "The database holds \(count - 1) of the \(count) migrations this version needs: run `locify migrate`.")

            app.logger.logLevel = .critical
            let unreachable = try SQLPostgresConfiguration(url: "postgres://nobody@127.0.0.1:1/none")
            app.databases.use(
                .postgres(configuration: unreachable), as: DatabaseID(string: "unreachable"), isDefault: true)
            let down = try await app.send(.GET, "/health/ready")
            XCTAssertEqual(down.status, .serviceUnavailable)
            let reason = try XCTUnwrap(try down.decoded(HealthResource.self).reason)
            XCTAssertTrue(reason.hasPrefix("The database cannot be reached: "), reason)
        }
    }

    func testMetricsAreForTheScraperWithTheTokenOnly() async throws {
        try await forEachDatabase { app, _, database in
            let closed = try await app.send(.GET, "/metrics")
            XCTAssertEqual(closed.status, .unauthorized, "\(database): closed without a token, on or off")
            let off = try await app.send(.GET, "/metrics", headers: ["Authorization": "Bearer whatever-it-may-be"])
            XCTAssertEqual(off.status, .notFound, "no token set, no metrics")

            let token = "scrape-me-please-0123456789"
            app.locifyConfig.metricsToken = token
            ServerMetrics.start()
            let account = try await app.makeAccount()
            let listed = try await app.send(
                .GET, "/api/contacts", headers: ["Authorization": "Bearer \(account.token)"])
            XCTAssertEqual(listed.status, .ok)
            let anonymous = try await app.send(.GET, "/metrics")
            XCTAssertEqual(anonymous.status, .unauthorized)
            XCTAssertEqual(anonymous.text, "/metrics needs the metrics token as a bearer token.\n")
            XCTAssertEqual(anonymous.headers.first(name: .wwwAuthenticate), #"Bearer realm="metrics""#)
            let wrong = try await app.send(.GET, "/metrics", headers: ["Authorization": "Bearer not-the-token"])
            XCTAssertEqual(wrong.status, .unauthorized)

            let scraped = try await app.send(.GET, "/metrics", headers: ["Authorization": "Bearer \(token)"])
            XCTAssertEqual(scraped.status, .ok)
            XCTAssertEqual(scraped.headers.first(name: .contentType), "text/plain; version=0.0.4; charset=utf-8")
            let text = scraped.text
            for expected in [
                #"http_requests_total{method="GET",path="/api/contacts",status="200"}"#,
                #"http_request_duration_seconds_bucket{method="GET",path="/api/contacts",status="200",le="0.001"}"#,
                #"locify_jobs{kind="notifications.deliver",state="failed"} 0"#,
                "locify_database_connections_per_instance_max ",
                "locify_periodic_work_held 0",
            ] {
                XCTAssertTrue(text.contains(expected), "\(database): \(expected) missing from\n\(text.prefix(3000))")
            }
            if database == .postgres {
                XCTAssertTrue(text.contains(#"locify_database_connections{state="active"}"#))
            }
        }
    }

    func testOpenAPIDescribesEveryRegisteredAPIRoute() async throws {
        try await forEachDatabase { app, _, _ in
            let response = try await app.send(.GET, "/openapi.json")
            XCTAssertEqual(response.status, .ok)
            let document = try response.json()
            XCTAssertEqual(document["openapi"] as? String, "3.1.0")
            // Parameter names differ between routes and the document; their places must not.
            func template(_ path: String) -> String {
                path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
            }
            let documented = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
            let paths = Dictionary(
                documented.map { (template($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            let apiRoutes = app.routes.all.filter { ["api", "oauth"].contains($0.path.first?.description ?? "") }
            XCTAssertFalse(apiRoutes.isEmpty)
            for route in apiRoutes {
                let path =
                    "/"
                    + route.path.map { component in
                        if case .parameter = component { return "{}" }
                        return component.description
                    }.joined(separator: "/")
                let operations = paths[path]
                XCTAssertNotNil(operations, "\(path) is missing from openapi.json")
                XCTAssertNotNil(
                    operations?[route.method.rawValue.lowercased()],
                    "\(route.method) \(path) is missing from openapi.json")
            }
        }
    }

    func testPagesForVisitorsAndErrors() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            let about = try await browser.get("/about")
            XCTAssertTrue(about.text.contains("GeoNames"))
            XCTAssertTrue(about.text.contains("Natural Earth"))
            XCTAssertTrue(about.text.contains("OpenStreetMap contributors"))
            XCTAssertTrue(about.text.contains(LocifyConfig.version))
            let home = try await browser.get("/")
            XCTAssertEqual(home.headers.first(name: .location), "/login")
            let missing = try await browser.get("/no-such-page")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(missing.text.contains("<h1>Not Found</h1>"))
            let stylesheet = try await browser.get("/css/locify.css")
            XCTAssertEqual(stylesheet.status, .ok)
            XCTAssertTrue(stylesheet.text.contains("prefers-color-scheme: dark"))
        }
    }

    func testUnknownPathKeepsTheSignedInNavigation() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let missing = try await browser.get("/no-such-page")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(missing.text.contains(#"<a href="/settings">"#), missing.text)
            XCTAssertTrue(missing.text.contains(#"<span class="nav-label">Settings</span>"#))
            XCTAssertTrue(missing.text.contains("Grace Hopper"))
            // The log-out form on that page carries a token the CSRF check accepts.
            let logout = try await browser.post("/logout", form: [:])
            XCTAssertEqual(logout.status, .seeOther)
            let afterLogout = try await browser.get("/contacts")
            XCTAssertEqual(afterLogout.headers.first(name: .location), "/login?next=/contacts")
        }
    }

    /// Each event loop's SQLite connection clears deleted content only from pages it writes anyway
    /// (see applyConnectionSettings): zeroing every freed page stalled writes during an import.
    func testEverySQLiteConnectionDeletesSecurelyButFast() async throws {
        try await withApp(.sqlite) { app, _ in
            var loops = 0
            for loop in app.eventLoopGroup.makeIterator() {
                let database = try XCTUnwrap(app.databases.database(.sqlite, logger: app.logger, on: loop))
                let rows = try await database.plainRows(#"PRAGMA secure_delete"#, columns: ["secure_delete"])
                XCTAssertEqual(try rows.first?.requiredInteger(0), 2, "FAST is 2")
                loops += 1
            }
            XCTAssertGreaterThan(loops, 0)
        }
    }

    func testAPreparedQueryIsKeptOnItsPostgreSQLConnection() async throws {
        try await withApp(.postgres) { app, _ in
            _ = try await app.makeAccount()
            let query: SQLQueryString = #"SELECT "id", "email" FROM "users" WHERE "id" > \#(bind: 0) ORDER BY "id""#
            // A transaction holds one connection, as each pooled connection keeps its own statements.
            try await app.db.transaction { database in
                for round in 1...3 {
                    let rows = try await database.preparedRows(query, columns: ["id", "email"])
                    XCTAssertEqual(try rows.first?.requiredInteger(0), 1, "round \(round)")
                    XCTAssertEqual(try rows.first?.requiredText(1), "ada@example.com", "round \(round): a text cell")
                }
                // PostgreSQL's own list of the connection's prepared statements: the query, once.
                let kept = try await database.plainRows(
                    #"SELECT "statement" FROM "pg_prepared_statements""#, columns: ["statement"])
                XCTAssertEqual(kept.count, 1)
                XCTAssertTrue(try kept.first?.requiredText(0).contains(#"FROM "users""#) == true)
                let postgres = try XCTUnwrap(database as? any PostgresDatabase)
                let count = try await postgres.withConnection { connection in
                    connection.eventLoop.makeSucceededFuture(PostgresStatements.count(on: connection))
                }.get()
                XCTAssertEqual(count, 1)

                // A connection keeps a bounded number; past it, a new text still answers, unnamed.
                for other in 1...PostgresStatements.perConnection {
                    let distinct: SQLQueryString =
                        #"SELECT "id" FROM "users" WHERE "id" > \#(bind: 0) AND \#(unsafeRaw: String(other)) > 0"#
                    let rows = try await database.preparedRows(distinct, columns: ["id"])
                    XCTAssertEqual(try rows.first?.requiredInteger(0), 1, "text \(other)")
                }
                let all = try await database.plainRows(
                    #"SELECT COUNT(*) AS "n" FROM "pg_prepared_statements""#, columns: ["n"])
                XCTAssertEqual(try all.first?.requiredInteger(0), PostgresStatements.perConnection)
            }
        }
    }

    func testPlainQueriesReuseTheirStatementsOnSQLite() async throws {
        try await withApp(.sqlite) { app, _ in
            let loop = app.eventLoopGroup.any()
            let database = try XCTUnwrap(app.databases.database(.sqlite, logger: app.logger, on: loop))
            let sqlite = try XCTUnwrap(database as? any SQLiteDatabase)
            func counts() async throws -> (kept: Int, reused: Int) {
                let counts = try await sqlite.withConnection { SQLiteStatements.counts(on: $0) }
                return try XCTUnwrap(counts, "the connection's handle is reachable")
            }
            let before = try await counts()
            let query: SQLQueryString = #"SELECT \#(bind: "kept") AS "text", 41 + 1 AS "number""#
            for round in 1...3 {
                let rows = try await database.plainRows(query, columns: ["text", "number"])
                XCTAssertEqual(try rows.first?.requiredText(0), "kept", "round \(round)")
                XCTAssertEqual(try rows.first?.requiredInteger(1), 42)
            }
            var after = try await counts()
            XCTAssertEqual(after.reused - before.reused, 2, "prepared once, reused twice")
            XCTAssertEqual(after.kept, before.kept + 1)

            // A failing statement is not kept, and the connection goes on.
            do {
                _ = try await database.plainRows(#"SELECT "nothing" FROM "no_such_table""#, columns: ["nothing"])
                XCTFail("the query should fail")
            } catch {
                XCTAssertTrue(String(describing: error).contains("no such table"), "\(error)")
            }
            after = try await counts()
            XCTAssertEqual(after.kept, before.kept + 1)

            // A kept statement holds no snapshot: a write on another connection is seen at once.
            let otherLoop = app.eventLoopGroup.makeIterator().first { $0 !== loop } ?? loop
            let other = try XCTUnwrap(
                app.databases.database(.sqlite, logger: app.logger, on: otherLoop) as? any SQLDatabase)
            try await other.raw(#"CREATE TABLE "kept_check" ("n" INTEGER)"#).run()
            let count: SQLQueryString = #"SELECT COUNT(*) AS "n" FROM "kept_check""#
            let empty = try await database.plainRows(count, columns: ["n"])
            XCTAssertEqual(try empty.first?.requiredInteger(0), 0)
            try await other.raw(#"INSERT INTO "kept_check" VALUES (1)"#).run()
            let one = try await database.plainRows(count, columns: ["n"])
            XCTAssertEqual(try one.first?.requiredInteger(0), 1)
        }
    }

    func testAConnectionWaitingForTheWriteLockPausesInsteadOfSpinning() async throws {
        // A file database: only there do two connections take turns with the write lock.
        try await withUnmigratedSQLiteFileApp { app in
            let loops = Array(app.eventLoopGroup.makeIterator())
            try XCTSkipIf(loops.count < 2, "needs two event loops, so two connections")
            let holder = try XCTUnwrap(app.databases.database(.sqlite, logger: app.logger, on: loops[0]))
            let waiter = try XCTUnwrap(
                app.databases.database(.sqlite, logger: app.logger, on: loops[1]) as? any SQLDatabase)
            try await waiter.raw(#"CREATE TABLE "turns" ("n" INTEGER)"#).run()

            let held = 0.4
            let locked = AsyncStream<Void>.makeStream()
            async let holding: Void = holder.transaction { transaction in
                try await transaction.sqlDatabase().raw(#"INSERT INTO "turns" VALUES (1)"#).run()
                locked.continuation.yield()
                try await Task.sleep(for: .seconds(held))
            }
            for await _ in locked.stream { break }
            let cpuBefore = Self.processCPUSeconds()
            let began = ContinuousClock.now
            try await waiter.raw(#"INSERT INTO "turns" VALUES (2)"#).run()
            let waited = ContinuousClock.now - began
            let cpu = Self.processCPUSeconds() - cpuBefore
            try await holding

            XCTAssertGreaterThan(waited, .seconds(held / 2), "the second write waited for the first to commit")
            XCTAssertLessThan(cpu, held / 4, "waiting \(waited) cost \(cpu) s of CPU: it spun")
            let rows = try await waiter.raw(#"SELECT COUNT(*) AS "n" FROM "turns""#).all()
            XCTAssertEqual(try rows.first?.decode(column: "n", as: Int.self), 2)
        }
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func testTheServedDescriptionCarriesTodaysBirthdayBounds() async throws {
        try await forEachDatabase { app, clock, _ in
            // 2024-05-04 is the test clock's day.
            let text = try await app.send(.GET, "/openapi.json").text
            XCTAssertFalse(text.contains("\"__"), "every placeholder is filled in")
            XCTAssertTrue(text.contains(#""minimum": 2024,"#) || text.contains(#""minimum":2024"#))
            let placeholders = Dictionary(
                uniqueKeysWithValues: try OpenAPIDocument.placeholders(
                    today: CalendarDate(year: 2024, month: 1, day: 31)!))
            XCTAssertEqual(placeholders["__MONTH_BEFORE__"], "0")
            XCTAssertEqual(
                placeholders["__MONTH_BEFORE_RANGE__"], #""^(?!)$""#, "no month of this year is before January")
            XCTAssertEqual(placeholders["__DAY_RANGE__"]?.contains("|31)"), true)
            XCTAssertEqual(placeholders["__YEAR_EXACT__"], #""^[ \\t]*(\\+?0*(2024))[ \\t]*$""#)
            clock.advance(by: 365 * 24 * 3600)
            let nextYear = try await app.send(.GET, "/openapi.json").text
            XCTAssertTrue(nextYear.contains("2025"))
        }
    }
}

/// Migrations as a first start and an upgrade run them.
final class MigrationTests: XCTestCase {
    struct Failing: AsyncMigration {
        struct Refused: Error {}
        func prepare(on database: any Database) async throws { throw Refused() }
        func revert(on database: any Database) async throws {}
    }

    func testOnSQLiteAMigrationThatFailsLeavesTheDatabaseAsItWas() async throws {
        // SQLite only: there every pending migration runs in one transaction (see migrateDatabase).
        try await withUnmigratedSQLiteFileApp { app in
            do {
                try await app.migrateDatabase(locifyMigrations + [Failing()])
                XCTFail("the failing migration stops the batch")
            } catch is Failing.Refused {}
            let tables = try await app.db.plainRows(
                #"SELECT COUNT(*) AS "n" FROM "sqlite_master" WHERE "type" = 'table'"#, columns: ["n"])
            XCTAssertEqual(try tables.first?.requiredInteger(0), 0, "not one table of the batch is left")
        }
    }
}
