import Fluent
import Foundation
import NIOPosix
import SQLKit

/// A kind of background work: its name in the `jobs` table, its payload, how often it is tried, and
/// what it does. A handler must be idempotent: a job whose worker died runs again.
protocol JobHandler: Sendable {
    associatedtype Payload: Codable & Sendable
    static var kind: String { get }
    /// Attempts before the job is marked failed (it stays in the table, visible).
    static var maximumAttempts: Int { get }
    func run(_ payload: Payload, context: JobContext) async throws
}

/// What a running job may use.
struct JobContext: Sendable {
    let database: any Database
    let dependencies: LocifyDependencies
    let config: LocifyConfig
    let logger: Logger
    let attempt: Int
    /// Where a job's long CPU work runs (see `Application.cpuWork`).
    let cpuWork: NIOThreadPool
}

/// Puts work in the `jobs` table. Call it with the database (or transaction) of the change that causes
/// the work, so both are stored or neither.
enum JobQueue {
    /// Enqueues `payload` for `Handler`; a job with the same `dedupeKey` is never queued twice.
    static func enqueue<Handler: JobHandler>(
        _ handler: Handler.Type, _ payload: Handler.Payload, dedupeKey: String, runAt: Date, on database: any Database
    ) async throws {
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        try await TableWriter(JobsTable.self, on: database).insert(
            [
                .kind: Handler.kind, .payload: json, .runAt: runAt, .attempts: 0, .dedupeKey: dedupeKey,
                .createdAt: runAt,
            ], onConflict: [.dedupeKey])
    }
}

/// One row of the `jobs` table, for the runner, tests and the operator.
struct JobRecord: Sendable, Equatable {
    let id: Int
    let kind: String
    let payload: String
    let runAt: Date
    let attempts: Int
    let lastError: String?
    let doneAt: Date?
    let failedAt: Date?
    let dedupeKey: String

    enum State: String {
        case queued, done, failed
    }

    var state: State { doneAt != nil ? .done : failedAt != nil ? .failed : .queued }

    init(row: PlainRow) throws {
        id = try row.requiredInteger(0)
        kind = try row.requiredText(1)
        payload = try row.requiredText(2)
        runAt = try row.requiredDate(3)
        attempts = try row.requiredInteger(4)
        lastError = try row.text(5)
        doneAt = try row.date(6)
        failedAt = try row.date(7)
        dedupeKey = try row.requiredText(8)
    }

    static func all(on database: any Database) async throws -> [JobRecord] {
        try await database.plainRows(
            #"SELECT \#(JobsTable.recordColumns.list) FROM "jobs" ORDER BY "id""#,
            columns: JobsTable.recordColumns.names
        ).map(JobRecord.init(row:))
    }
}
