import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class CommandLineTests: XCTestCase {
    func testUserTokenAndDemoSeed() async throws {
        try await forEachDatabase { app, _, _ in
            try await LocifyApp.createUser(in: app, email: "Cli@Example.com", name: "Cli User", password: "long enough")
            do {
                try await LocifyApp.createUser(in: app, email: "cli@example.com", name: "Again", password: "short")
                XCTFail("a duplicate email and a short password must fail")
            } catch let failure as CommandFailure {
                XCTAssertEqual(
                    failure.description,
                    "Password must be at least 8 characters.\nAn account with this email already exists.")
            }
            let token = try await LocifyApp.createToken(in: app, email: "cli@example.com", label: "script")
            let me = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(token)"])
            XCTAssertEqual(
                try me.decoded(DataEnvelope<UserResource>.self).data.email, "cli@example.com")

            let listed = try await LocifyApp.listTokens(in: app, email: "cli@example.com")
            XCTAssertEqual(listed.map(\.label), ["script"])
            try await LocifyApp.revokeToken(in: app, email: "cli@example.com", id: listed[0].id)
            let revoked = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(token)"])
            XCTAssertEqual(revoked.status, .unauthorized)
            do {
                try await LocifyApp.revokeToken(in: app, email: "cli@example.com", id: listed[0].id)
                XCTFail("revoking twice must fail")
            } catch let failure as CommandFailure {
                XCTAssertTrue(failure.description.contains("has no token with id"))
            }
            let seedToken = try await LocifyApp.createToken(in: app, email: "cli@example.com", label: "seed check")

            let first = try await LocifyApp.fillWithSampleData(in: app, email: "cli@example.com", peopleOnly: true)
            XCTAssertEqual(first, "Added 12 sample contacts.")
            let second = try await LocifyApp.fillWithSampleData(in: app, email: "cli@example.com", peopleOnly: true)
            XCTAssertEqual(second, "Added 0 sample contacts (12 already there).", "seeding twice adds nothing")
            let list = try await app.send(
                .GET, "/api/contacts?limit=100", headers: ["Authorization": "Bearer \(seedToken)"])
            XCTAssertEqual(try list.decoded(PageResource<ContactResource>.self).meta.total, 12)

            do {
                _ = try await LocifyApp.createToken(in: app, email: "nobody@example.com", label: "x")
                XCTFail("an unknown email must fail")
            } catch let failure as CommandFailure {
                XCTAssertEqual(
                    failure.description,
                    "No account has the email nobody@example.com. Create it first with `locify user create`.")
            }
        }
    }

    func testConfigurationFromEnvironment() throws {
        let defaults = try LocifyConfig.resolve(environment: [:])
        XCTAssertEqual(defaults.host, "127.0.0.1")
        XCTAssertEqual(defaults.port, 8080)
        XCTAssertEqual(defaults.registration, .open)
        XCTAssertTrue(defaults.dataDirectory.path.hasSuffix("locify-data"))
        XCTAssertEqual(
            defaults.storage, .sqlite(path: defaults.dataDirectory.appendingPathComponent("locify.sqlite").path))

        let configured = try LocifyConfig.resolve(environment: [
            "LOCIFY_HOST": "0.0.0.0", "LOCIFY_PORT": "9000", "LOCIFY_DATA_DIR": "/tmp/locify-x",
            "LOCIFY_REGISTRATION": "closed", "DATABASE_URL": "postgres://u@db/locify",
            "LOCIFY_BASE_URL": "https://l.example/",
        ])
        XCTAssertEqual(configured.host, "0.0.0.0")
        XCTAssertEqual(configured.port, 9000)
        XCTAssertEqual(configured.registration, .closed)
        XCTAssertEqual(configured.storage, .postgres(url: "postgres://u@db/locify"))
        XCTAssertEqual(configured.publicBaseURL, "https://l.example")

        let flagsWin = try LocifyConfig.resolve(
            environment: ["LOCIFY_PORT": "9000"], host: "::1", port: 7000, dataDirectory: "/tmp/d")
        XCTAssertEqual(flagsWin.port, 7000)
        XCTAssertEqual(flagsWin.host, "::1")
        XCTAssertEqual(flagsWin.dataDirectory.path, "/tmp/d")

        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_PORT": "eighty"])) { error in
            XCTAssertEqual(
                String(describing: error), "LOCIFY_PORT=eighty is not valid: expected a port number from 0 to 65535.")
        }
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_REGISTRATION": "maybe"]))
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["DATABASE_URL": "mysql://x"]))
    }

    func testTheServiceSettingsFromEnvironment() throws {
        let defaults = try LocifyConfig.resolve(environment: [:])
        XCTAssertEqual(defaults.leaseLifetime, 60)
        XCTAssertEqual(defaults.retention, LocifyConfig.Retention())
        XCTAssertEqual(defaults.retention.finishedJobs, 7 * 86_400)
        XCTAssertEqual(defaults.retention.deliveryLog, 90 * 86_400)
        XCTAssertNil(defaults.metricsToken)
        XCTAssertEqual(defaults.adminEmails, [])

        let configured = try LocifyConfig.resolve(environment: [
            "LOCIFY_LEASE_SECONDS": "15", "LOCIFY_JOB_RETENTION_DAYS": "2", "LOCIFY_DELIVERY_RETENTION_DAYS": "30",
            "LOCIFY_METRICS_TOKEN": "0123456789abcdef0123",
            "LOCIFY_ADMIN_EMAILS": " Ops@Example.com, ,root@example.org",
        ])
        XCTAssertEqual(configured.leaseLifetime, 15)
        XCTAssertEqual(configured.retention.finishedJobs, 2 * 86_400)
        XCTAssertEqual(configured.retention.deliveryLog, 30 * 86_400)
        XCTAssertEqual(configured.metricsToken, "0123456789abcdef0123")
        XCTAssertEqual(configured.adminEmails, ["ops@example.com", "root@example.org"])

        for (variable, value, expected) in [
            ("LOCIFY_LEASE_SECONDS", "2", "a number of seconds from 5 to 3600"),
            ("LOCIFY_JOB_RETENTION_DAYS", "0", "a number of days from 1 to 3650"),
            ("LOCIFY_DELIVERY_RETENTION_DAYS", "many", "a number of days from 1 to 3650"),
            ("LOCIFY_WORKERS", "65", "a number from 0 to 64"),
        ] {
            XCTAssertThrowsError(try LocifyConfig.resolve(environment: [variable: value])) { error in
                XCTAssertEqual(String(describing: error), "\(variable)=\(value) is not valid: expected \(expected).")
            }
        }
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_METRICS_TOKEN": "short"])) { error in
            XCTAssertEqual(
                String(describing: error),
                "LOCIFY_METRICS_TOKEN=… is not valid: expected at least 16 characters without spaces "
                    + "(e.g. from `openssl rand -hex 32`).")
        }
    }
}
