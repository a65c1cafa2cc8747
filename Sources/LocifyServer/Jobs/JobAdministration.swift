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
                "“\(text)” is not a job state: say \(State.allCases.map(\.rawValue).joined(separator: ", "))."
            }
        }
    }

    /// Where a job is: running while a worker's claim on it lasts.
    enum State: String, CaseIterable {
        case queued, running, done, failed
    }

    /// A job's state at `now`, as SQL: the one definition the list, the counts and the actions share.
    private static func state(at now: Date) -> SQLQueryString {
        #"""
        CASE WHEN "done_at" IS NOT NULL THEN 'done' WHEN "failed_at" IS NOT NULL THEN 'failed' \#
        WHEN "locked_until" >= \#(bind: now) THEN 'running' ELSE 'queued' END
        """#
    }

    /// The jobs in `states` (every state but done when nil), oldest first, at most `limit`.
    public func jobs(in states: [String]? = nil, limit: Int = 200) async throws -> [Summary] {
        let wanted = try (states ?? ["queued", "running", "failed"]).map { text in
            guard let state = State(rawValue: text) else { throw Problem.unknownState(text) }
            return state.rawValue
        }
        let state = Self.state(at: now())
        let rows = try await database.plainRows(
            #"""
            SELECT "id", "kind", \#(state) AS "state", "attempts", "run_at", "last_error", "locked_by" FROM "jobs" \#
            WHERE \#(state) IN (\#(binds: wanted)) ORDER BY "id" LIMIT \#(literal: max(1, limit))
            """#, columns: ["id", "kind", "state", "attempts", "run_at", "last_error", "locked_by"])
        return try rows.map { row in
            let state = try row.requiredText(2)
            return Summary(
                id: try row.requiredInteger(0), kind: try row.requiredText(1), state: state,
                attempts: try row.requiredInteger(3), runAt: try row.requiredDate(4), lastError: try row.text(5),
                heldBy: state == State.running.rawValue ? try row.text(6) : nil)
        }
    }

    /// How many jobs of each kind are queued, running, done and failed.
    public func counts() async throws -> [Count] {
        let rows = try await database.plainRows(
            #"""
            SELECT "kind", \#(Self.state(at: now())) AS "state", COUNT(*) AS "count" FROM "jobs" \#
            GROUP BY 1, 2 ORDER BY 1, 2
            """#, columns: ["kind", "state", "count"])
        return try rows.map {
            Count(kind: try $0.requiredText(0), state: try $0.requiredText(1), count: try $0.requiredInteger(2))
        }
    }

    /// Queues failed job `id` to run at once, with its attempts counted afresh.
    public func retry(_ id: Int) async throws {
        let changed = try await TableWriter(JobsTable.self, on: database).update(
            [
                .failedAt: Date?.none, .attempts: 0, .runAt: now(), .lockedBy: String?.none,
                .lockedUntil: Date?.none,
            ], where: Self.failed(id))
        if changed == 0 { try await explainNotFailed(id) }
    }

    /// Lets failed job `id` go.
    public func discard(_ id: Int) async throws {
        let deleted = try await TableWriter(JobsTable.self, on: database).delete(where: Self.failed(id))
        if deleted == 0 { try await explainNotFailed(id) }
    }

    private static func failed(_ id: Int) -> SQLQueryString {
        #""id" = \#(literal: id) AND "done_at" IS NULL AND "failed_at" IS NOT NULL"#
    }

    /// Says why job `id` was left as it was: it is not there, or not failed.
    private func explainNotFailed(_ id: Int) async throws -> Never {
        let rows = try await database.plainRows(
            #"SELECT \#(Self.state(at: now())) AS "state" FROM "jobs" WHERE "id" = \#(literal: id)"#,
            columns: ["state"])
        guard let state = try rows.first?.requiredText(0) else { throw Problem.noSuchJob(id) }
        throw Problem.notFailed(id: id, state: state)
    }
}

extension Application {
    /// The operator's view of this application's jobs.
    public var jobAdministration: JobAdministration {
        let dependencies = dependencies
        return JobAdministration(database: db, now: { dependencies.now() })
    }
}
