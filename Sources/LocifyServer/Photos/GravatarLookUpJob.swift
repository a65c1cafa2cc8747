import Fluent
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Asks Gravatar for one e-mail hash of one account, in the background: no page or API response waits
/// on Gravatar. A picture or "none" is kept for 7 days; Gravatar down or slow (3 s) is tried again later,
/// and meanwhile the contact shows its initials.
struct GravatarLookUpJob: JobHandler {
    struct Payload: Codable, Sendable {
        let ownerID: Int
        let hash: String
    }

    static let kind = "gravatar-look-up"
    static let maximumAttempts = 5
    /// Gravatar's size: enough for the 128-pixel contact page on a high-density screen.
    static let size = 200

    func run(_ payload: Payload, context: JobContext) async throws {
        let avatars = AvatarService(
            database: context.database, ownerID: payload.ownerID, dependencies: context.dependencies)
        // Turned off since the job was queued, or no contact has the address any more: nothing to ask.
        guard try await avatars.looksUpGravatar() else { return }
        let wanted = try await context.database.plainRows(
            """
            SELECT 1 AS "wanted" FROM "contacts" WHERE "user_id" = \(literal: payload.ownerID) \
            AND "gravatar_hash" = \(bind: payload.hash) LIMIT 1
            """, columns: ["wanted"])
        guard !wanted.isEmpty else { return }
        let image = try await context.dependencies.gravatar.image(forHash: payload.hash, size: Self.size)
        try await avatars.recordGravatar(hash: payload.hash, image: image)
    }

    /// Queues a look-up, one per account, e-mail and day: a contact saved again, or a sweep, adds
    /// nothing while one waits, and a look-up that failed every attempt is tried again the next day.
    /// `anew` asks even when one ran today (look-ups just turned back on).
    static func enqueue(ownerID: Int, hash: String, now: Date, anew: Bool = false, on database: any Database)
        async throws
    {
        let day = Int(now.timeIntervalSince1970) / 86_400
        let key = "gravatar:\(ownerID):\(hash):\(day)" + (anew ? ":\(Int(now.timeIntervalSince1970 * 1000))" : "")
        try await JobQueue.enqueue(
            Self.self, Payload(ownerID: ownerID, hash: hash), dedupeKey: key, runAt: now, on: database)
    }
}

/// Queues look-ups for e-mails whose Gravatar answer is missing or older than 7 days, a batch at a time,
/// at most every ten minutes. Run by the first job worker, like the notification planner.
final class GravatarRefresher: Sendable {
    static let interval: TimeInterval = 600
    static let batch = 200
    private let lastSweep = NIOLockedValueBox<Date?>(nil)

    /// Sweeps `database` when the last sweep was long enough ago, or always when `force` is set; nothing
    /// when look-ups are off for the server. Returns how many look-ups it queued.
    @discardableResult
    func sweepIfDue(now: Date, on database: any Database, lookUpsEnabled: Bool, force: Bool = false) async throws -> Int
    {
        guard lookUpsEnabled else { return 0 }
        let due = lastSweep.withLockedValue { last -> Bool in
            guard force || last.map({ now.timeIntervalSince($0) >= Self.interval }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return 0 }
        let cutoff = now.addingTimeInterval(-AvatarService.gravatarLifetime)
        let rows = try await database.plainRows(
            """
            SELECT DISTINCT "contacts"."user_id", "contacts"."gravatar_hash" FROM "contacts" \
            JOIN "users" ON "users"."id" = "contacts"."user_id" AND "users"."looks_up_gravatar" = \(bind: true) \
            WHERE "contacts"."gravatar_hash" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "gravatar_cache" \
            WHERE "gravatar_cache"."user_id" = "contacts"."user_id" \
            AND "gravatar_cache"."email_hash" = "contacts"."gravatar_hash" \
            AND "gravatar_cache"."fetched_at" > \(bind: cutoff)) \
            LIMIT \(literal: Self.batch)
            """, columns: ["user_id", "gravatar_hash"])
        for row in rows {
            try await GravatarLookUpJob.enqueue(
                ownerID: try row.requiredInteger(0), hash: try row.requiredText(1), now: now, on: database)
        }
        return rows.count
    }
}

extension Application {
    private struct GravatarRefresherKey: StorageKey {
        typealias Value = GravatarRefresher
    }

    /// Kept for the application's life: it remembers when it last swept.
    var gravatarRefresher: GravatarRefresher {
        get { configured(GravatarRefresherKey.self) }
        set { storage[GravatarRefresherKey.self] = newValue }
    }
}

extension PeriodicTask {
    /// Queues look-ups of Gravatars not checked for a while (the refresher decides when a sweep is due).
    static func sweepingGravatars(in application: Application) -> PeriodicTask {
        let gravatars = application.gravatarRefresher
        let database = application.db
        let lookUpsEnabled = application.dependencies.gravatar.isEnabled
        return PeriodicTask(name: "sweeping Gravatars") { now in
            _ = try await gravatars.sweepIfDue(now: now, on: database, lookUpsEnabled: lookUpsEnabled)
        }
    }
}
