import Foundation

/// Counts failed log-ins per key (an email, an IP address) in a sliding window. Pure: the caller
/// passes the current instant, so tests can travel in time, and keeps the value in one place.
public struct LoginThrottle: Sendable {
    public let limit: Int
    public let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    public init(limit: Int = 5, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds until `keys` may try again, or nil when none of them is locked out.
    public func retryAfter(for keys: [String], now: Date) -> Int? {
        let waits = keys.compactMap { key -> TimeInterval? in
            let recent = failures[key, default: []].filter { now.timeIntervalSince($0) < window }
            guard recent.count >= limit, let oldest = recent.suffix(limit).first else { return nil }
            return window - now.timeIntervalSince(oldest)
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    public mutating func recordFailure(for keys: [String], now: Date) {
        for key in keys {
            var recent = failures[key, default: []].filter { now.timeIntervalSince($0) < window }
            recent.append(now)
            failures[key] = recent
        }
        prune(now: now)
    }

    public mutating func recordSuccess(for key: String) {
        failures[key] = nil
    }

    /// Drops expired entries so a stream of distinct keys cannot grow memory without bound.
    private mutating func prune(now: Date) {
        guard failures.count > 10_000 else { return }
        failures = failures.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
    }
}
