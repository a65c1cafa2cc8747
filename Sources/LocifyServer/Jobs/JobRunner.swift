import Fluent
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// A job handler with its payload type erased, so the runner can keep handlers of every kind together.
struct RegisteredJob: Sendable {
    let kind: String
    let maximumAttempts: Int
    let run: @Sendable (_ payload: String, _ context: JobContext) async throws -> Void

    init<Handler: JobHandler>(_ handler: Handler) {
        kind = Handler.kind
        maximumAttempts = Handler.maximumAttempts
        run = { payload, context in
            let decoded = try JSONDecoder().decode(Handler.Payload.self, from: Data(payload.utf8))
            try await handler.run(decoded, context: context)
        }
    }
}

/// Claims due jobs and runs them: `runDue(now:)` is one pass, which tests call with a clock of their
/// own; `JobWorkers` calls it in a loop while the server runs.
struct JobRunner: Sendable {
    let database: any Database
    let dependencies: LocifyDependencies
    let config: LocifyConfig
    let logger: Logger
    let handlers: [String: RegisteredJob]
    let cpuWork: NIOThreadPool
    /// Names this process in `locked_by`, so an operator can see who holds a job.
    let workerID: String
    /// How long a claim lasts unless renewed (`LOCIFY_LEASE_SECONDS`): the worker renews it while the job
    /// runs, so one that outlives it belongs to a worker that died, and the job runs again.
    var claimLifetime: TimeInterval { config.leaseLifetime }

    init(
        database: any Database, dependencies: LocifyDependencies, config: LocifyConfig, logger: Logger,
        handlers: [RegisteredJob], cpuWork: NIOThreadPool, workerID: String
    ) {
        self.cpuWork = cpuWork
        self.database = database
        self.dependencies = dependencies
        self.config = config
        self.logger = logger
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.workerID = workerID
    }

    /// Runs every job due at `now`, one after another, and returns how many ran (failures included).
    /// A cancelled task (the server shutting down) finishes the job it holds and claims no more. Each
    /// claim is made at the clock's time when it is later than `now`: a pass through a long queue that
    /// claimed with the time it started would claim its last jobs already expired, for another worker
    /// to run as well.
    @discardableResult
    func runDue(now: Date) async throws -> Int {
        var count = 0
        while !Task.isCancelled {
            let claimTime = max(now, dependencies.now())
            guard let claimed = try await claim(now: claimTime) else { break }
            await run(claimed, now: claimTime)
            count += 1
        }
        return count
    }

    private struct Claimed {
        let id: Int
        let kind: String
        let payload: String
        let attempts: Int
    }

    /// Takes the next due job in one statement: on PostgreSQL `FOR UPDATE SKIP LOCKED` lets several
    /// servers share the table, each row going to one of them; SQLite runs the statement under its write lock.
    private var jobs: TableWriter<JobsTable> { TableWriter(JobsTable.self, on: database) }

    private func claim(now: Date) async throws -> Claimed? {
        let sql = try database.sqlDatabase()
        let skipLocked: SQLQueryString = sql.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        let due: SQLQueryString = #"""
            "done_at" IS NULL AND "failed_at" IS NULL AND "run_at" <= \#(bind: now) \#
            AND ("locked_until" IS NULL OR "locked_until" < \#(bind: now))
            """#
        let rows = try await jobs.update(
            [.lockedBy: workerID, .lockedUntil: now.addingTimeInterval(claimLifetime)],
            computing: [.attempts: #""attempts" + 1"#],
            where: """
                "id" = (SELECT "id" FROM "jobs" WHERE \(due) ORDER BY "run_at", "id" LIMIT 1\(skipLocked)) \
                AND \(due)
                """, returning: [.id, .kind, .payload, .attempts])
        guard let row = rows.first else { return nil }
        return Claimed(
            id: try row.requiredInteger(0), kind: try row.requiredText(1), payload: try row.requiredText(2),
            attempts: try row.requiredInteger(3))
    }

    private func run(_ job: Claimed, now: Date) async {
        let thisJob: SQLQueryString = #""id" = \#(literal: job.id)"#
        let unlocked: JobsTable.Values = [.lockedBy: String?.none, .lockedUntil: Date?.none]
        guard let handler = handlers[job.kind] else {
            logger.error("No handler for job kind \(job.kind); marking job \(job.id) failed")
            _ = try? await jobs.update(
                unlocked.merging([.failedAt: now, .lastError: "no handler for \(job.kind)"]) { $1 }, where: thisJob)
            return
        }
        let context = JobContext(
            database: database, dependencies: dependencies, config: config, logger: logger, attempt: job.attempts,
            cpuWork: cpuWork)
        do {
            try await whileRenewingClaim(on: job.id) { try await handler.run(job.payload, context) }
            try await jobs.update(
                unlocked.merging([.doneAt: dependencies.now(), .lastError: String?.none]) { $1 }, where: thisJob)
        } catch {
            let message = String(describing: error)
            if job.attempts >= handler.maximumAttempts {
                logger.warning("Job \(job.id) (\(job.kind)) failed for good after \(job.attempts) attempts: \(message)")
                _ = try? await jobs.update(
                    unlocked.merging([.failedAt: now, .lastError: message]) { $1 }, where: thisJob)
            } else {
                let retryAt = now.addingTimeInterval(Self.backOff(attempt: job.attempts, jobID: job.id))
                logger.info("Job \(job.id) (\(job.kind)) failed, retrying at \(Timestamp.string(retryAt)): \(message)")
                _ = try? await jobs.update(
                    unlocked.merging([.runAt: retryAt, .lastError: message]) { $1 }, where: thisJob)
            }
        }
    }

    /// Runs `work` while renewing this worker's claim on the job every third of its lifetime, so a job
    /// that takes long is not taken for a dead worker's and run a second time beside it.
    private func whileRenewingClaim(on jobID: Int, _ work: @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(claimLifetime / 3))
                    if Task.isCancelled { return }
                    _ = try? await jobs.update(
                        [.lockedUntil: dependencies.now().addingTimeInterval(claimLifetime)],
                        where: #""id" = \#(literal: jobID) AND "locked_by" = \#(bind: workerID)"#)
                }
            }
            defer { group.cancelAll() }
            try await work()
        }
    }

    /// 30 s, 1 min, 2 min, … doubling up to 6 h, plus up to a quarter more so jobs that failed together
    /// do not retry together. The jitter comes from the job's id, so a test knows when a retry is due.
    static func backOff(attempt: Int, jobID: Int) -> TimeInterval {
        let base = min(30 * pow(2, Double(max(0, attempt - 1))), 6 * 3600)
        let jitter = Double((jobID &* 2_654_435_761) % 1000) / 1000 * 0.25
        return base * (1 + jitter)
    }
}

/// The runner's loop while the server runs: `count` workers each run due jobs, then wait for a nudge
/// (work was just queued) or the poll interval. The first worker also runs the application's periodic
/// tasks first, when this instance holds the periodic-work lease: among the instances on one database,
/// one at a time does. Shutdown stops the loop, lets a running job finish and gives the lease up.
final class JobWorkers: LifecycleHandler, Sendable {
    let count: Int
    let pollInterval: Duration
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
    private let signal = JobSignal()
    private let lease = NIOLockedValueBox<Lease?>(nil)

    init(count: Int, pollInterval: Duration = .seconds(1)) {
        self.count = count
        self.pollInterval = pollInterval
    }

    /// Wakes the workers at once, instead of at the next poll.
    func nudge() {
        signal.fire()
    }

    func didBoot(_ application: Application) throws {
        let runner = application.jobRunner
        let periodicTasks = application.periodicTasks
        let pollInterval = pollInterval
        let signal = signal
        let lease = Lease.periodicWork(holder: runner.workerID, lifetime: runner.claimLifetime)
        self.lease.withLockedValue { $0 = lease }
        let started = (0..<count).map { index in
            Task {
                while !Task.isCancelled {
                    // One worker is enough for the periodic tasks: what they queue, every worker runs.
                    if index == 0, await Self.holds(lease, runner: runner) {
                        for task in periodicTasks {
                            do {
                                try await task.run(runner.dependencies.now())
                            } catch {
                                runner.logger.error(
                                    "The periodic task “\(task.name)” failed: \(String(reflecting: error))")
                            }
                        }
                    }
                    do {
                        try await runner.runDue(now: runner.dependencies.now())
                    } catch {
                        runner.logger.report(error: error)
                    }
                    if Task.isCancelled { break }
                    await signal.wait(upTo: pollInterval)
                }
            }
        }
        tasks.withLockedValue { $0 = started }
    }

    func shutdownAsync(_ application: Application) async {
        let running = tasks.withLockedValue { $0 }
        for task in running { task.cancel() }
        signal.fire()
        for task in running { await task.value }
        if let lease = lease.withLockedValue({ $0 }) {
            try? await lease.release(on: application.db)
        }
    }

    /// Takes or renews `lease`; a database that cannot be reached holds nothing.
    private static func holds(_ lease: Lease, runner: JobRunner) async -> Bool {
        do {
            return try await lease.take(now: runner.dependencies.now(), on: runner.database)
        } catch {
            runner.logger.error("Taking the periodic-work lease failed: \(String(reflecting: error))")
            return false
        }
    }
}

/// A wake-up call for sleeping workers: `wait(upTo:)` returns when `fire()` is called or the time is up,
/// whichever comes first; each waiter is resumed exactly once.
final class JobSignal: Sendable {
    private struct Waiters {
        var next = 0
        var byID: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let waiters = NIOLockedValueBox(Waiters())

    func fire() {
        let woken = waiters.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            defer { state.byID.removeAll() }
            return Array(state.byID.values)
        }
        for continuation in woken { continuation.resume() }
    }

    func wait(upTo duration: Duration) async {
        await withCheckedContinuation { continuation in
            let id = waiters.withLockedValue { state -> Int in
                state.next += 1
                state.byID[state.next] = continuation
                return state.next
            }
            Task { [self] in
                try? await Task.sleep(for: duration)
                waiters.withLockedValue { $0.byID.removeValue(forKey: id) }?.resume()
            }
        }
    }
}

extension Application {
    private struct JobHandlersKey: StorageKey {
        typealias Value = [RegisteredJob]
    }

    private struct JobWorkersKey: StorageKey {
        typealias Value = JobWorkers
    }

    private struct PeriodicTasksKey: StorageKey {
        typealias Value = [PeriodicTask]
    }

    /// What the first worker does before each round of due jobs, in order (registered in `configure`).
    var periodicTasks: [PeriodicTask] {
        get { storage[PeriodicTasksKey.self] ?? [] }
        set { storage[PeriodicTasksKey.self] = newValue }
    }

    /// Every kind of job this server knows how to run.
    var jobHandlers: [RegisteredJob] {
        get { storage[JobHandlersKey.self] ?? [] }
        set { storage[JobHandlersKey.self] = newValue }
    }

    /// The background workers, when `LOCIFY_WORKERS` is above 0.
    var jobWorkers: JobWorkers? {
        get { storage[JobWorkersKey.self] }
        set { storage[JobWorkersKey.self] = newValue }
    }

    /// A runner over this application's database; tests call `runDue(now:)` on it step by step.
    var jobRunner: JobRunner {
        JobRunner(
            database: db, dependencies: dependencies, config: locifyConfig, logger: logger, handlers: jobHandlers,
            cpuWork: cpuWork,
            workerID: "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)")
    }
}

/// Work a feature has done on every round of the workers, before the due jobs: cheap when there is
/// nothing to do, as it runs about once a second. `run` gets the time of the round.
struct PeriodicTask: Sendable {
    /// For the log, when a round of it fails.
    let name: String
    let run: @Sendable (Date) async throws -> Void
}
