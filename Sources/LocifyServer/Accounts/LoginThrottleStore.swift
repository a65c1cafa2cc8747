import Fluent
import Foundation
import LocifyCore
import SQLKit
import Vapor

/// Failed log-ins, kept in the database: several servers on one database count the same failures, and a
/// restart forgets none. Shared by the web log-in and `POST /oauth/login`.
struct LoginThrottleStore {
    let database: any Database
    let rule = LoginThrottle(limit: 5, window: 60)

    /// Throws `tooManyAttempts` when the email or the address has failed too often in the last minute.
    func check(email: String, address: String, now: Date) async throws {
        let keys = LoginThrottle.keys(email: email, address: address)
        let rows = try await database.plainRows(
            """
            SELECT "throttle_key", "failed_at" FROM "login_failures" \
            WHERE "throttle_key" IN (\(bind: keys[0]), \(bind: keys[1])) AND "failed_at" > \(bind: rule.windowStart(now: now))
            """, columns: ["throttle_key", "failed_at"])
        var failures: [String: [Date]] = [:]
        for row in rows {
            failures[try row.requiredText(0), default: []].append(try row.requiredDate(1))
        }
        if let wait = rule.retryAfter(failures: failures, now: now) {
            throw AccountError.tooManyAttempts(retryAfterSeconds: wait)
        }
    }

    /// Counts a failure against the email and the address, and forgets failures too old to count, so a
    /// stream of made-up emails cannot grow the table without bound.
    func recordFailure(email: String, address: String, now: Date) async throws {
        let keys = LoginThrottle.keys(email: email, address: address)
        let failures = TableWriter(LoginFailuresTable.self, on: database)
        try await failures.insert(keys.map { [.throttleKey: $0, .failedAt: now] })
        try await failures.delete(where: #""failed_at" <= \#(bind: rule.windowStart(now: now))"#)
    }

    func recordSuccess(email: String) async throws {
        try await TableWriter(LoginFailuresTable.self, on: database).delete(
            where: #""throttle_key" = \#(bind: LoginThrottle.emailKey(email))"#)
    }
}

extension Application {
    private struct TokenCacheKey: StorageKey {
        typealias Value = TokenCache
    }

    /// Created once by `configure`, shared by every request of this instance.
    var tokenCache: TokenCache {
        get { configured(TokenCacheKey.self) }
        set { storage[TokenCacheKey.self] = newValue }
    }
}

extension Request {
    /// The client's address: the connection's peer, or what the trusted proxies in front of it say
    /// (`LOCIFY_TRUSTED_PROXIES`); a forwarded header from anyone else is ignored.
    var clientAddress: String {
        application.locifyConfig.trustedProxies.clientAddress(
            peer: remoteAddress?.ipAddress, forwardedFor: headers[.xForwardedFor]) ?? "unknown"
    }

    /// Authenticates credentials under the throttle: every failure counts, success clears the email.
    func logIn(email: String, password: String) async throws -> AuthenticatedUser {
        let throttle = LoginThrottleStore(database: db)
        let address = clientAddress
        try await throttle.check(email: email, address: address, now: now)
        guard let user = try await accounts.authenticate(email: email, password: password) else {
            try await throttle.recordFailure(email: email, address: address, now: now)
            throw AccountError.badCredentials
        }
        try await throttle.recordSuccess(email: email)
        return user
    }
}
