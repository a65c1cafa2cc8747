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
    /// The clients that pushed to the account, the most recently seen first.
    public let clients: [Client]

    /// A client that pushed, as `locify sync status` lists it.
    public struct Client: Sendable, Equatable {
        public let clientID: String
        public let lastMutationID: Int
        public let pushes: Int
        public let firstSeenAt: Date
        public let lastSeenAt: Date
    }

    static func read(ownerID: Int, types: [SyncedType], on database: any Database) async throws -> SyncStatus {
        let account = try await RevisionLogState.read(for: ownerID, on: database)
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
        let clients = try await database.plainRows(
            """
            SELECT \(SyncClientsTable.clientColumns.list) FROM "sync_clients" WHERE "user_id" = \(bind: ownerID) \
            ORDER BY "last_seen_at" DESC, "client_id"
            """, columns: SyncClientsTable.clientColumns.names
        ).map(SyncClientsTable.client(from:))
        return SyncStatus(
            revision: account.latest, horizon: account.horizon,
            tombstones: try tombstones.first?.requiredInteger(0) ?? 0, oldestTombstone: try tombstones.first?.date(1),
            records: records, clients: clients)
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
        lines.append(clients.isEmpty ? "Clients: none has pushed yet" : "Clients:")
        lines += clients.map {
            "  \($0.clientID): last seen \(Timestamp.string($0.lastSeenAt)), \($0.pushes) "
                + "push\($0.pushes == 1 ? "" : "es"), last mutation \($0.lastMutationID), first seen "
                + Timestamp.day($0.firstSeenAt)
        }
        return lines
    }
}
