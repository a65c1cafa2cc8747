import FluentKit
import Foundation
import LocifyCore

/// Where an account's revision log stands: for `locify sync status`.
public struct SyncStatus: Sendable {
    /// The account's latest revision.
    public let revision: Int
    /// The newest revision whose tombstones were let go; a cursor before it answers 410.
    public let horizon: Int
    public let tombstones: Int
    public let oldestTombstone: Date?
    /// How many records of each synced type the account has, in the feed's order.
    public let records: [(type: String, count: Int)]

    static func read(ownerID: Int, types: [SyncedType], on database: any Database) async throws -> SyncStatus {
        let account = try await database.plainRows(
            #"SELECT "revision", "sync_horizon" FROM "users" WHERE "id" = \#(bind: ownerID)"#,
            columns: ["revision", "sync_horizon"])
        let tombstones = try await database.plainRows(
            """
            SELECT COUNT(*) AS "n", MIN("deleted_at") AS "oldest" FROM "sync_tombstones" \
            WHERE "user_id" = \(bind: ownerID)
            """, columns: ["n", "oldest"])
        var records: [(type: String, count: Int)] = []
        for type in types {
            let rows = try await database.plainRows(
                #"SELECT COUNT(*) AS "n" FROM "\#(unsafeRaw: type.table)" WHERE "user_id" = \#(bind: ownerID)"#,
                columns: ["n"])
            records.append((type.name, try rows.first?.requiredInteger(0) ?? 0))
        }
        return SyncStatus(
            revision: try account.first?.integer(0) ?? 0, horizon: try account.first?.integer(1) ?? 0,
            tombstones: try tombstones.first?.requiredInteger(0) ?? 0, oldestTombstone: try tombstones.first?.date(1),
            records: records)
    }

    /// The status as `locify sync status` prints it.
    public var lines: [String] {
        var lines = [
            "Revision: \(revision)",
            "Horizon: \(horizon == 0 ? "none (no deletion let go yet)" : String(horizon))",
            "Tombstones: \(tombstones)" + (oldestTombstone.map { ", the oldest from \(Timestamp.day($0))" } ?? ""),
            "Records:",
        ]
        lines += records.map { "  \($0.type): \($0.count)" }
        return lines
    }
}
