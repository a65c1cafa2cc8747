import Foundation

/// When failed log-ins lock a key (an email, an IP address) out: `limit` failures within the last `window`
/// seconds. Pure: the failures come from wherever they are kept (the database, so that several servers
/// and a restart share them) and the caller passes the current instant.
public struct LoginThrottle: Sendable {
    public let limit: Int
    public let window: TimeInterval

    public init(limit: Int = 5, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// The oldest failure that still counts: older ones can be forgotten.
    public func windowStart(now: Date) -> Date {
        now.addingTimeInterval(-window)
    }

    /// Seconds until every key may try again, or nil when none of them is locked out. `failures` holds
    /// each key's failed attempts, in any order.
    public func retryAfter(failures: [String: [Date]], now: Date) -> Int? {
        let waits = failures.values.compactMap { dates -> TimeInterval? in
            let recent = dates.filter { now.timeIntervalSince($0) < window }.sorted()
            guard recent.count >= limit, let oldest = recent.suffix(limit).first else { return nil }
            return window - now.timeIntervalSince(oldest)
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    /// The keys a log-in attempt counts against.
    public static func keys(email: String, address: String) -> [String] {
        [emailKey(email), "ip:" + address]
    }

    /// The email as a digest: whatever was typed (a megabyte, a NUL) is stored as 64 hex characters.
    public static func emailKey(_ email: String) -> String {
        "email:" + PersonalToken.digest(EmailAddress.normalized(email))
    }
}
