import Foundation
import LocifyCore
import Vapor

/// Holds the server's login throttle; shared by the web log-in and `POST /oauth/login`.
actor LoginThrottleStore {
    private var throttle = LoginThrottle(limit: 5, window: 60)

    /// Throws `tooManyAttempts` when the email or the address has failed too often in the last minute.
    func check(email: String, address: String, now: Date) throws {
        if let wait = throttle.retryAfter(for: Self.keys(email: email, address: address), now: now) {
            throw AccountError.tooManyAttempts(retryAfterSeconds: wait)
        }
    }

    func recordFailure(email: String, address: String, now: Date) {
        throttle.recordFailure(for: Self.keys(email: email, address: address), now: now)
    }

    func recordSuccess(email: String) {
        throttle.recordSuccess(for: "email:" + EmailAddress.normalized(email))
    }

    private static func keys(email: String, address: String) -> [String] {
        ["email:" + EmailAddress.normalized(email), "ip:" + address]
    }
}

extension Application {
    private struct LoginThrottleKey: StorageKey {
        typealias Value = LoginThrottleStore
    }

    private struct TokenCacheKey: StorageKey {
        typealias Value = TokenCache
    }

    /// Created once by `configure`, shared by every request of this instance.
    var tokenCache: TokenCache {
        get { configured(TokenCacheKey.self) }
        set { storage[TokenCacheKey.self] = newValue }
    }

    /// Created once by `configure`, so concurrent requests share one store.
    var loginThrottle: LoginThrottleStore {
        get { configured(LoginThrottleKey.self) }
        set { storage[LoginThrottleKey.self] = newValue }
    }
}

extension Request {
    /// The client's address; behind a proxy, the first `X-Forwarded-For` hop.
    var clientAddress: String {
        if let forwarded = headers.first(name: .xForwardedFor)?.split(separator: ",").first {
            return forwarded.trimmingCharacters(in: .whitespaces)
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }

    /// Authenticates credentials under the throttle: every failure counts, success clears the email.
    func logIn(email: String, password: String) async throws -> UserModel {
        let throttle = application.loginThrottle
        let address = clientAddress
        try await throttle.check(email: email, address: address, now: now)
        guard let user = try await accounts.authenticate(email: email, password: password) else {
            await throttle.recordFailure(email: email, address: address, now: now)
            throw AccountError.badCredentials
        }
        await throttle.recordSuccess(email: email)
        return user
    }
}
