import XCTest

@testable import LocifyServer

/// `swift test` on a machine without PostgreSQL runs the SQLite half and says how to get the rest; CI, which
/// sets `LOCIFY_TEST_POSTGRES=required`, never leaves the PostgreSQL half out.
final class TestDatabaseAvailabilityTests: XCTestCase {
    private let tools: Set<String> = ["/usr/lib/postgresql/17/bin/initdb", "/usr/lib/postgresql/17/bin/pg_ctl"]

    private func availability(_ environment: [String: String]) -> PostgresCluster.Availability {
        PostgresCluster.Availability(environment: environment) { tools.contains($0) }
    }

    func testBothToolsOnThePathStartAClusterOfTheRunsOwn() {
        XCTAssertEqual(availability(["PATH": "/usr/bin:/usr/lib/postgresql/17/bin"]), .installed)
    }

    func testWithoutTheToolsThePostgreSQLHalfIsLeftOutUnlessRequired() {
        XCTAssertEqual(availability(["PATH": "/usr/bin:/bin"]), .missing(required: false))
        XCTAssertEqual(availability([:]), .missing(required: false))
        XCTAssertEqual(
            availability(["PATH": "/usr/bin", "LOCIFY_TEST_POSTGRES": "required"]), .missing(required: true))
    }

    func testAConfiguredServerNeedsNoTools() {
        XCTAssertEqual(availability(["LOCIFY_TEST_DATABASE_URL": "postgres://127.0.0.1/x"]), .configured)
        XCTAssertEqual(availability(["LOCIFY_TEST_DATABASE_URL": "", "PATH": "/usr/bin"]), .missing(required: false))
    }

    func testTheNoticeSaysHowToInstallPostgreSQL() {
        XCTAssertTrue(PostgresCluster.Availability.notice.contains("apt-get install postgresql"))
        XCTAssertTrue(PostgresCluster.Availability.notice.contains("LOCIFY_TEST_DATABASE_URL"))
    }
}
