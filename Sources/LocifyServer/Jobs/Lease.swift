import Fluent
import Foundation
import SQLKit

/// A hold on work that one instance at a time may do, kept in the database so that every instance on it
/// agrees. The holder renews it while it works; when the holder dies the lease runs out, and the next
/// instance to ask takes it.
struct Lease: Sendable {
    let name: String
    let holder: String
    let lifetime: TimeInterval

    /// The periodic tasks: the notification planner, the Gravatar sweep, the clean-ups.
    static func periodicWork(holder: String, lifetime: TimeInterval) -> Lease {
        Lease(name: "periodic", holder: holder, lifetime: lifetime)
    }

    /// Takes or renews the lease for `lifetime` from `now`; false when another instance holds it.
    func take(now: Date, on database: any Database) async throws -> Bool {
        let leases = TableWriter(LeasesTable.self, on: database)
        let expiresAt = now.addingTimeInterval(lifetime)
        let renewed = try await leases.update(
            [.holder: holder, .expiresAt: expiresAt],
            where: #"""
                "name" = \#(bind: name) AND ("holder" = \#(bind: holder) OR "expires_at" < \#(bind: now))
                """#)
        if renewed > 0 { return true }
        let inserted = try await leases.insert(
            [.name: name, .holder: holder, .expiresAt: expiresAt], onConflict: [.name], returning: [.id])
        return !inserted.isEmpty
    }

    /// Gives the lease up at once (a clean shutdown), so another instance need not wait for it to run out.
    func release(on database: any Database) async throws {
        try await TableWriter(LeasesTable.self, on: database).delete(
            where: #""name" = \#(bind: name) AND "holder" = \#(bind: holder)"#)
    }

    /// Who holds the lease now, if anyone.
    static func holder(of name: String, now: Date, on database: any Database) async throws -> String? {
        try await database.plainRows(
            #"""
            SELECT "holder" FROM "leases" WHERE "name" = \#(bind: name) AND "expires_at" >= \#(bind: now)
            """#, columns: ["holder"]
        ).first?.requiredText(0)
    }
}
