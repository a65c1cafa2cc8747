import Foundation
import NIOConcurrencyHelpers

/// The users of recently seen API tokens, for a few seconds, so a client's burst of requests costs one
/// token look-up instead of one each. Revoking a token or changing a profile evicts its entries on this
/// instance at once; another instance sharing the database sees the change within `lifetime`.
final class TokenCache: Sendable {
    struct Entry: Sendable {
        let user: AuthenticatedUser
        let tokenID: Int
        let expiresAt: Date?
        let cachedAt: Date
    }

    static let lifetime: TimeInterval = 5
    private static let capacity = 10_000
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    /// The user of the token with this digest, if it was looked up less than `lifetime` ago and has not
    /// expired since.
    func user(forDigest digest: String, now: Date) -> AuthenticatedUser? {
        entries.withLockedValue { entries in
            guard let entry = entries[digest] else { return nil }
            let isFresh = now.timeIntervalSince(entry.cachedAt) < Self.lifetime && entry.cachedAt <= now
            let hasExpired = entry.expiresAt.map { $0 <= now } ?? false
            guard isFresh, !hasExpired else {
                entries[digest] = nil
                return nil
            }
            return entry.user
        }
    }

    func store(_ entry: Entry, forDigest digest: String) {
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[digest] = entry
        }
    }

    func evict(tokenID: Int) {
        entries.withLockedValue { entries in entries = entries.filter { $0.value.tokenID != tokenID } }
    }

    func evict(userID: Int) {
        entries.withLockedValue { entries in entries = entries.filter { $0.value.user.id != userID } }
    }
}
