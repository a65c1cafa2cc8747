import FluentKit
import Foundation
import Vapor

/// Lets go of tombstones older than the retention. Each account's horizon moves up to the newest revision
/// let go, and every tombstone of that revision or older goes (by revision, not by date, so the horizon
/// says exactly what a cursor can no longer be answered for).
struct TombstoneRetention {
    let database: any Database
    let retention: TimeInterval

    /// Returns how many tombstones went.
    @discardableResult
    func purge(now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-retention)
        let due = try await database.plainRows(
            """
            SELECT "user_id", MAX("revision") AS "newest" FROM "sync_tombstones" \
            WHERE "deleted_at" < \(bind: cutoff) GROUP BY "user_id"
            """, columns: ["user_id", "newest"])
        var purged = 0
        for row in due {
            let (ownerID, newest) = (try row.requiredInteger(0), try row.requiredInteger(1))
            purged += try await database.transaction { transaction in
                try await TableWriter(UsersTable.self, on: transaction).update(
                    [:],
                    computing: [
                        .syncHorizon:
                            #"CASE WHEN "sync_horizon" < \#(bind: newest) THEN \#(bind: newest) ELSE "sync_horizon" END"#
                    ],
                    where: #""id" = \#(bind: ownerID)"#)
                return try await TableWriter(SyncTombstonesTable.self, on: transaction).delete(
                    where: #""user_id" = \#(bind: ownerID) AND "revision" <= \#(bind: newest)"#)
            }
        }
        return purged
    }
}

extension PeriodicTask {
    /// Lets go of tombstones older than `LOCIFY_SYNC_RETENTION_DAYS`.
    static func purgingTombstones(in application: Application) -> PeriodicTask {
        let retention = TombstoneRetention(
            database: application.db, retention: TimeInterval(application.locifyConfig.syncRetentionDays) * 86_400)
        return PeriodicTask(name: "letting go of old tombstones") { now in try await retention.purge(now: now) }
    }
}
