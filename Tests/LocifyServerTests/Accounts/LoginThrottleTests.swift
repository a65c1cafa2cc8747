import Foundation
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The log-in throttle as an attacker meets it: forged forwarded addresses buy no extra guesses, and
/// failures are counted in the database, so other instances and a restart see them.
final class LoginThrottleTests: XCTestCase {
    func testForwardedForCountsOnlyFromTrustedProxies() async throws {
        try await forEachDatabase { app, clock, database in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            // No proxy is trusted: five made-up addresses and emails are all this connection's peer.
            for attempt in 1...5 {
                let answer = try Self.logIn(
                    port: port, email: "guess\(attempt)@example.com", forwardedFor: "198.51.100.\(attempt)")
                XCTAssertTrue(answer.hasPrefix("HTTP/1.1 401"), "\(database): \(answer)")
            }
            let rotated = try Self.logIn(port: port, email: "guess6@example.com", forwardedFor: "198.51.100.6")
            XCTAssertTrue(rotated.hasPrefix("HTTP/1.1 429"), "\(database): a new header is no new address: \(rotated)")

            clock.advance(by: 61)
            app.locifyConfig.trustedProxies = try TrustedProxies(parsing: "127.0.0.0/8, ::1")
            for attempt in 1...5 {
                let answer = try Self.logIn(
                    port: port, email: "again\(attempt)@example.com", forwardedFor: "203.0.113.9")
                XCTAssertTrue(answer.hasPrefix("HTTP/1.1 401"), "\(database): \(answer)")
            }
            let sameClient = try Self.logIn(port: port, email: "again6@example.com", forwardedFor: "203.0.113.9")
            XCTAssertTrue(
                sameClient.hasPrefix("HTTP/1.1 429"), "\(database): the proxy's client is locked: \(sameClient)")
            // Behind a trusted proxy, the client's own claim to the left of what the proxy saw is not believed.
            let prefixed = try Self.logIn(
                port: port, email: "again7@example.com", forwardedFor: "192.0.2.1, 203.0.113.9")
            XCTAssertTrue(prefixed.hasPrefix("HTTP/1.1 429"), "\(database): \(prefixed)")
            let otherClient = try Self.logIn(port: port, email: "again8@example.com", forwardedFor: "203.0.113.10")
            XCTAssertTrue(otherClient.hasPrefix("HTTP/1.1 401"), "\(database): another client is not: \(otherClient)")
            await app.server.shutdown()
        }
    }

    func testFailuresOnTwoInstancesLockTheSixthOnBothAndSurviveARestart() async throws {
        for database in PostgresCluster.testedDatabases {
            try await withInstancesSharingOneDatabase(database) { first, second, _ in
                _ = try await first.makeAccount()
                let browser = WebClient(app: first)
                try await browser.get("/login")
                for _ in 1...3 {
                    let wrong = try await browser.post(
                        "/login", form: ["email": "ada@example.com", "password": "nope nope"])
                    XCTAssertEqual(wrong.status, .unauthorized, "\(database)")
                }
                for _ in 1...2 {
                    let wrong = try await second.send(
                        .POST, "/oauth/login", json: #"{"email": "ada@example.com", "password": "nope nope"}"#)
                    XCTAssertEqual(wrong.status, .unauthorized, "\(database)")
                }
                let lockedOnFirst = try await browser.post(
                    "/login", form: ["email": "ada@example.com", "password": "correct horse"])
                XCTAssertEqual(lockedOnFirst.status, .tooManyRequests, "\(database)")
                let lockedOnSecond = try await second.send(
                    .POST, "/oauth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
                XCTAssertEqual(lockedOnSecond.status, .tooManyRequests, "\(database)")
                XCTAssertEqual(lockedOnSecond.headers.first(name: .retryAfter), "60")
            } afterRestart: { restarted in
                let stillLocked = try await restarted.send(
                    .POST, "/oauth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
                XCTAssertEqual(stillLocked.status, .tooManyRequests, "\(database): a restart forgets nothing")
            }
        }
    }

    func testOldFailuresAreForgottenAndASuccessClearsTheEmail() async throws {
        try await forEachDatabase { app, clock, database in
            _ = try await app.makeAccount()
            for _ in 1...4 {
                _ = try await app.send(.POST, "/oauth/login", json: #"{"email": "ada@example.com", "password": "no"}"#)
            }
            let good = try await app.send(
                .POST, "/oauth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
            XCTAssertEqual(good.status, .ok, "\(database)")
            let kept = try await app.count(LoginFailuresTable.self)
            XCTAssertEqual(kept, 4, "\(database): the address's failures stay, the email's are cleared")
            clock.advance(by: 61)
            _ = try await app.send(.POST, "/oauth/login", json: #"{"email": "eve@example.com", "password": "no"}"#)
            let afterAMinute = try await app.count(LoginFailuresTable.self)
            XCTAssertEqual(afterAMinute, 2, "\(database): failures older than the window are deleted")
        }
    }

    /// `POST /oauth/login` over a real connection, so the server sees a peer address.
    private static func logIn(port: Int, email: String, forwardedFor: String) throws -> String {
        let body = Array(#"{"email": "\#(email)", "password": "not the password"}"#.utf8)
        return try RawHTTP.exchange(
            port: port,
            head: [
                "POST /oauth/login HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                "Content-Length: \(body.count)", "X-Forwarded-For: \(forwardedFor)", "Connection: close",
            ].joined(separator: "\r\n"), body: body)
    }
}
