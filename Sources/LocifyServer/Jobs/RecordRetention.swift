import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Lets go of the records of finished work, so the tables that every background pass reads stay small:
/// jobs done longer ago than the retention, expired browser sessions and OAuth tokens, and sign-ins with
/// another provider never finished (or links never confirmed) once out of date. Failed
/// jobs stay until an operator retries or discards them. (Features let go of their own records the same
/// way, e.g. the notification delivery log.)
struct RecordRetention {
    let database: any Database
    let retention: LocifyConfig.Retention

    /// How many rows of each kind went.
    struct Pruned: Equatable {
        var finishedJobs = 0
        var sessions = 0
        var tokens = 0
        var signIns = 0
    }

    @discardableResult
    func prune(now: Date) async throws -> Pruned {
        var pruned = Pruned()
        pruned.finishedJobs = try await TableWriter(JobsTable.self, on: database).delete(
            where: #""done_at" IS NOT NULL AND "done_at" < \#(bind: now.addingTimeInterval(-retention.finishedJobs))"#)
        pruned.sessions = try await TableWriter(WebSessionsTable.self, on: database).delete(
            where: #""expires_at" <= \#(bind: now)"#)
        pruned.tokens = try await TableWriter(APITokensTable.self, on: database).delete(
            where: #""expires_at" IS NOT NULL AND "expires_at" <= \#(bind: now)"#)
        pruned.signIns =
            try await TableWriter(SignInAttemptsTable.self, on: database).delete(
                where: #""expires_at" <= \#(bind: now)"#)
            + TableWriter(SignInConfirmationsTable.self, on: database).delete(where: #""expires_at" <= \#(bind: now)"#)
        return pruned
    }
}

extension PeriodicTask {
    /// How often the clean-ups run: what they let go is days old, so once an hour is soon enough.
    static let cleanUpInterval: TimeInterval = 3600

    /// A task that does its work on the first round and then once every `interval`, however often the
    /// rounds come.
    init(name: String, every interval: TimeInterval, run: @escaping @Sendable (Date) async throws -> Void) {
        let lastRun = NIOLockedValueBox<Date?>(nil)
        self.init(name: name) { now in
            let due = lastRun.withLockedValue { last in
                guard last.map({ now.timeIntervalSince($0) >= interval }) ?? true else { return false }
                last = now
                return true
            }
            if due { try await run(now) }
        }
    }

    /// Runs `RecordRetention` once an hour.
    static func pruningFinishedWork(in application: Application) -> PeriodicTask {
        let retention = RecordRetention(database: application.db, retention: application.locifyConfig.retention)
        return PeriodicTask(name: "letting go of finished work", every: cleanUpInterval) { now in
            try await retention.prune(now: now)
        }
    }
}
