import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// A hold on work that one instance at a time may do, kept in the database so that every instance on it
/// agrees. The holder renews it while it works; when the holder dies the lease runs out, and the next
/// instance to ask takes it.
struct Lease: Sendable {
    let name: String
    let holder: String
    let lifetime: TimeInterval
    /// Until when this holder last took the lease: while more than two thirds of that is left it needs no
    /// renewing, so an idle instance asking every round does not write to the database every round.
    private let heldUntil = NIOLockedValueBox<Date?>(nil)

    init(name: String, holder: String, lifetime: TimeInterval) {
        self.name = name
        self.holder = holder
        self.lifetime = lifetime
    }

    /// The periodic tasks: the notification planner, the Gravatar sweep, the clean-ups.
    static func periodicWork(holder: String, lifetime: TimeInterval) -> Lease {
        Lease(name: periodicWorkName, holder: holder, lifetime: lifetime)
    }

    static let periodicWorkName = "periodic"

    /// Which instance runs the periodic work now, if any.
    static func periodicWorkHolder(now: Date, on database: any Database) async throws -> String? {
        try await holder(of: periodicWorkName, now: now, on: database)
    }

    /// Takes or renews the lease for `lifetime` from `now`; false when another instance holds it.
    func take(now: Date, on database: any Database) async throws -> Bool {
        if let until = heldUntil.withLockedValue({ $0 }), until.timeIntervalSince(now) > lifetime * 2 / 3 {
            return true
        }
        heldUntil.withLockedValue { $0 = nil }
        let leases = TableWriter(LeasesTable.self, on: database)
        let expiresAt = now.addingTimeInterval(lifetime)
        let renewed = try await leases.update(
            [.holder: holder, .expiresAt: expiresAt],
            where: #"""
                "name" = \#(bind: name) AND ("holder" = \#(bind: holder) OR "expires_at" < \#(bind: now))
                """#)
        var taken = renewed > 0
        if !taken {
            taken = try await !leases.insert(
                [.name: name, .holder: holder, .expiresAt: expiresAt], onConflict: [.name], returning: [.id]
            ).isEmpty
        }
        if taken { heldUntil.withLockedValue { $0 = expiresAt } }
        return taken
    }

    /// Gives the lease up at once (a clean shutdown), so another instance need not wait for it to run out.
    func release(on database: any Database) async throws {
        heldUntil.withLockedValue { $0 = nil }
        try await TableWriter(LeasesTable.self, on: database).delete(
            where: #""name" = \#(bind: name) AND "holder" = \#(bind: holder)"#)
    }

    /// Who holds the lease now, if anyone.
    private static func holder(of name: String, now: Date, on database: any Database) async throws -> String? {
        try await database.plainRows(
            #"""
            SELECT "holder" FROM "leases" WHERE "name" = \#(bind: name) AND "expires_at" >= \#(bind: now)
            """#, columns: ["holder"]
        ).first?.requiredText(0)
    }
}
