import Fluent
import Foundation
import SQLKit
import Vapor

/// What an operator does with background work, from `locify jobs` or the Server page: see what is
/// queued, running and failed, run a failed job again, or let it go.
public struct JobAdministration: Sendable {
    let database: any Database
    let now: @Sendable () -> Date

    /// One job as an operator sees it.
    public struct Summary: Sendable, Equatable {
        public let id: Int
        public let kind: String
        public let state: String
        public let attempts: Int
        public let runAt: Date
        public let lastError: String?
        public let heldBy: String?
    }

    /// How many jobs of each kind are in each state.
    public struct Count: Sendable, Equatable {
        public let kind: String
        public let state: String
        public let count: Int
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case noSuchJob(Int)
        case notFailed(id: Int, state: String)
        case unknownState(String)

        public var description: String {
            switch self {
            case .noSuchJob(let id): "There is no job \(id)."
            case .notFailed(let id, let state):
                "Job \(id) is \(state); only a failed job can be retried or discarded."
            case .unknownState(let text):
                "“\(text)” is not a job state: say \(JobRecord.State.allCases.map(\.rawValue).joined(separator: ", "))."
            }
        }
    }

    /// The jobs in `states` (every state but done when nil), oldest first, at most `limit`.
    public func jobs(in states: [String]? = nil, limit: Int = 200) async throws -> [Summary] {
        let wanted = try (states ?? ["queued", "running", "failed"]).map { text in
            guard let state = JobRecord.State(rawValue: text) else { throw Problem.unknownState(text) }
            return state
        }
        let now = now()
        let conditions: [SQLQueryString] = wanted.map { state in
            switch state {
            case .done: #""done_at" IS NOT NULL"#
            case .failed: #""done_at" IS NULL AND "failed_at" IS NOT NULL"#
            case .running: #""done_at" IS NULL AND "failed_at" IS NULL AND "locked_until" >= \#(bind: now)"#
            case .queued:
                #"""
                "done_at" IS NULL AND "failed_at" IS NULL AND ("locked_until" IS NULL OR "locked_until" < \#(bind: now))
                """#
            }
        }
        let rows = try await database.plainRows(
            #"""
            SELECT \#(JobsTable.recordColumns.list) FROM "jobs" \#
            WHERE (\#(conditions.joined(separator: ") OR ("))) ORDER BY "id" LIMIT \#(literal: max(1, limit))
            """#, columns: JobsTable.recordColumns.names)
        return try rows.map(JobRecord.init(row:)).map {
            let state = $0.state(at: now)
            return Summary(
                id: $0.id, kind: $0.kind, state: state.rawValue, attempts: $0.attempts, runAt: $0.runAt,
                lastError: $0.lastError, heldBy: state == .running ? $0.lockedBy : nil)
        }
    }

    /// How many jobs of each kind are queued, running, done and failed.
    public func counts() async throws -> [Count] {
        let now = now()
        let rows = try await database.plainRows(
            #"""
            SELECT "kind", CASE WHEN "done_at" IS NOT NULL THEN 'done' WHEN "failed_at" IS NOT NULL THEN 'failed' \#
            WHEN "locked_until" >= \#(bind: now) THEN 'running' ELSE 'queued' END AS "state", COUNT(*) AS "count" \#
            FROM "jobs" GROUP BY 1, 2 ORDER BY 1, 2
            """#, columns: ["kind", "state", "count"])
        return try rows.map {
            Count(kind: try $0.requiredText(0), state: try $0.requiredText(1), count: try $0.requiredInteger(2))
        }
    }

    /// Queues failed job `id` to run at once, with its attempts counted afresh.
    public func retry(_ id: Int) async throws {
        try await requireFailed(id)
        try await TableWriter(JobsTable.self, on: database).update(
            [
                .failedAt: Date?.none, .attempts: 0, .runAt: now(), .lockedBy: String?.none,
                .lockedUntil: Date?.none,
            ], where: #""id" = \#(literal: id) AND "failed_at" IS NOT NULL"#)
    }

    /// Lets failed job `id` go.
    public func discard(_ id: Int) async throws {
        try await requireFailed(id)
        try await TableWriter(JobsTable.self, on: database).delete(
            where: #""id" = \#(literal: id) AND "failed_at" IS NOT NULL"#)
    }

    private func requireFailed(_ id: Int) async throws {
        let rows = try await database.plainRows(
            #"SELECT \#(JobsTable.recordColumns.list) FROM "jobs" WHERE "id" = \#(literal: id)"#,
            columns: JobsTable.recordColumns.names)
        guard let job = try rows.first.map(JobRecord.init(row:)) else { throw Problem.noSuchJob(id) }
        let state = job.state(at: now())
        guard state == .failed else { throw Problem.notFailed(id: id, state: state.rawValue) }
    }
}

extension Application {
    /// The operator's view of this application's jobs.
    public var jobAdministration: JobAdministration {
        let dependencies = dependencies
        return JobAdministration(database: db, now: { dependencies.now() })
    }
}
