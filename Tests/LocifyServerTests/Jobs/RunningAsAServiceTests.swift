import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import XCTVapor

@testable import LocifyServer

/// Several instances on one database: one holds the periodic work, a dead one's jobs run again, finished
/// work is let go, and an operator sees and acts on what failed.
final class RunningAsAServiceTests: XCTestCase {
    func testOneInstanceAtATimeHoldsThePeriodicWorkAndAnotherTakesItWhenItRunsOut() async throws {
        try await forEachDatabase { app, clock, database in
            let first = Lease.periodicWork(holder: "one:1", lifetime: 60)
            let second = Lease.periodicWork(holder: "two:2", lifetime: 60)
            let takenFirst = try await first.take(now: clock.now, on: app.db)
            XCTAssertTrue(takenFirst, "\(database)")
            let takenSecond = try await second.take(now: clock.now, on: app.db)
            XCTAssertFalse(takenSecond, "\(database): held by the first")
            let takenAt = clock.now
            clock.advance(by: 15)
            let stillHers = try await first.take(now: clock.now, on: app.db)
            XCTAssertTrue(stillHers)
            let unchanged = try await self.periodicLeaseExpiry(app)
            XCTAssertEqual(
                unchanged?.timeIntervalSince1970 ?? 0, takenAt.addingTimeInterval(60).timeIntervalSince1970,
                accuracy: 0.001, "with most of its time left, the lease is not written again")
            clock.advance(by: 44)
            let renewed = try await first.take(now: clock.now, on: app.db)
            XCTAssertTrue(renewed, "the holder renews it")
            let renewedExpiry = try await self.periodicLeaseExpiry(app)
            XCTAssertEqual(
                renewedExpiry?.timeIntervalSince1970 ?? 0, clock.now.addingTimeInterval(60).timeIntervalSince1970,
                accuracy: 0.001, "with less than two thirds left, it is written again")
            clock.advance(by: 59)
            let stillHeld = try await second.take(now: clock.now, on: app.db)
            XCTAssertFalse(stillHeld, "renewed 59 s ago, it still holds")
            clock.advance(by: 2)
            let takenOver = try await second.take(now: clock.now, on: app.db)
            XCTAssertTrue(takenOver, "the first stopped renewing: the second takes it")
            let holder = try await Lease.periodicWorkHolder(now: clock.now, on: app.db)
            XCTAssertEqual(holder, "two:2")
            let lost = try await first.take(now: clock.now, on: app.db)
            XCTAssertFalse(lost, "the first comes back to find it taken")
            try await second.release(on: app.db)
            let free = try await first.take(now: clock.now, on: app.db)
            XCTAssertTrue(free, "given up at shutdown, it is free at once")
        }
    }

    private func periodicLeaseExpiry(_ app: Application) async throws -> Date? {
        try await app.db.plainRows(
            #"SELECT "expires_at" FROM "leases" WHERE "name" = 'periodic'"#, columns: ["expires_at"]
        ).first?.date(0)
    }

    func testAnInstanceRunsNoPeriodicTaskWhileAnotherHoldsTheLease() async throws {
        try await withApp(.sqlite) { app, clock in
            let rounds = NIOLockedValueBox(0)
            app.periodicTasks = [PeriodicTask(name: "counting") { _ in rounds.withLockedValue { $0 += 1 } }]
            let other = Lease.periodicWork(holder: "elsewhere:1", lifetime: 60)
            let taken = try await other.take(now: clock.now, on: app.db)
            XCTAssertTrue(taken)
            let workers = JobWorkers(count: 1, pollInterval: .milliseconds(5))
            try workers.didBoot(app)
            try await Task.sleep(for: .milliseconds(300))
            XCTAssertEqual(rounds.withLockedValue { $0 }, 0, "another instance holds the periodic work")
            clock.advance(by: 61)
            let deadline = ContinuousClock.now + .seconds(10)
            while rounds.withLockedValue({ $0 }) < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            XCTAssertGreaterThanOrEqual(rounds.withLockedValue { $0 }, 2, "its lease ran out: this one took over")
            let holder = try await Lease.periodicWorkHolder(now: clock.now, on: app.db)
            XCTAssertEqual(holder, app.jobRunner.workerID)
            await workers.shutdownAsync(app)
            let afterShutdown = try await Lease.periodicWorkHolder(now: clock.now, on: app.db)
            XCTAssertNil(afterShutdown, "a clean shutdown gives the lease up")
        }
    }

    /// A job that waits until the test lets it finish.
    struct WaitingJob: JobHandler {
        struct Payload: Codable, Sendable {}
        static let kind = "test.waiting"
        static let maximumAttempts = 1
        static let started = NIOLockedValueBox(0)
        static let finish = NIOLockedValueBox(false)

        func run(_ payload: Payload, context: JobContext) async throws {
            Self.started.withLockedValue { $0 += 1 }
            while !Self.finish.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    func testAWorkerRenewsItsClaimWhileAJobRunsAndADeadWorkersJobRunsAgain() async throws {
        try await forEachDatabase { app, clock, database in
            WaitingJob.started.withLockedValue { $0 = 0 }
            WaitingJob.finish.withLockedValue { $0 = false }
            app.locifyConfig.leaseLifetime = 0.3
            app.jobHandlers = [RegisteredJob(WaitingJob())]
            try await JobQueue.enqueue(WaitingJob.self, .init(), dedupeKey: "wait", runAt: clock.now, on: app.db)
            let runner = app.jobRunner
            let other = JobRunner(
                database: app.db, dependencies: app.dependencies, config: app.locifyConfig, logger: app.logger,
                handlers: app.jobHandlers, cpuWork: app.cpuWork, workerID: "other:2")
            let running = Task { try await runner.runDue(now: clock.now) }
            while WaitingJob.started.withLockedValue({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
            // The first claim runs out 0.3 s from the start; the worker renews it every 0.1 s.
            clock.advance(by: 0.5)
            try await Task.sleep(for: .milliseconds(250))
            let stolen = try await other.runDue(now: clock.now)
            XCTAssertEqual(stolen, 0, "\(database): the claim was renewed, so the job is not run a second time")
            let listed = try await app.jobAdministration.jobs(in: ["running"])
            XCTAssertEqual(listed.map(\.heldBy), [runner.workerID])

            // The worker dies (its job's end, cancelled, is put back as it was at the claim): nothing renews
            // the claim, and once it runs out another worker runs the job.
            running.cancel()
            WaitingJob.finish.withLockedValue { $0 = true }
            _ = try? await running.value
            let sql = try app.db.sqlDatabase()
            try await sql.raw(
                #"""
                UPDATE "jobs" SET "done_at" = NULL, "failed_at" = NULL, "attempts" = 0, "locked_by" = 'dead:1', \#
                "locked_until" = \#(bind: clock.now.addingTimeInterval(0.3))
                """#
            ).run()
            let early = try await other.runDue(now: clock.now)
            XCTAssertEqual(early, 0, "the dead worker's claim still holds")
            clock.advance(by: 0.31)
            let ran = try await other.runDue(now: clock.now)
            XCTAssertEqual(ran, 1, "its claim ran out: the job runs again")
            let states = try await JobRecord.all(on: app.db).map(\.state)
            XCTAssertEqual(states, [.done])
        }
    }

    /// A job that moves the clock on as it runs, and notes whether its own claim was current meanwhile.
    struct SlowJob: JobHandler {
        struct Payload: Codable, Sendable {}
        static let kind = "test.slow"
        static let maximumAttempts = 1
        static let claimsSeenCurrent = NIOLockedValueBox<[Bool]>([])
        static let clock = NIOLockedValueBox<TestClock?>(nil)

        func run(_ payload: Payload, context: JobContext) async throws {
            let running = try await JobAdministration(
                database: context.database, now: { context.dependencies.now() }
            ).jobs(in: ["running"])
            Self.claimsSeenCurrent.withLockedValue { $0.append(running.count == 1) }
            Self.clock.withLockedValue { $0 }?.advance(by: 10)
        }
    }

    func testALongPassClaimsEachJobAtTheTimeItTakesIt() async throws {
        try await forEachDatabase { app, clock, database in
            SlowJob.claimsSeenCurrent.withLockedValue { $0 = [] }
            SlowJob.clock.withLockedValue { $0 = clock }
            app.locifyConfig.leaseLifetime = 5
            app.jobHandlers = [RegisteredJob(SlowJob())]
            for key in ["first", "second", "third"] {
                try await JobQueue.enqueue(SlowJob.self, .init(), dedupeKey: key, runAt: clock.now, on: app.db)
            }
            let ran = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ran, 3)
            XCTAssertEqual(
                SlowJob.claimsSeenCurrent.withLockedValue { $0 }, [true, true, true],
                "\(database): each job, taken 10 s after the last, is held while it runs, not expired at once")
        }
    }

    func testFinishedWorkIsLetGoAndFailedJobsStay() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let now = clock.now
            let day: TimeInterval = 86_400
            let jobs = TableWriter(JobsTable.self, on: app.db)
            for (key, done, failed) in [
                ("old-done", now - 8 * day, nil), ("new-done", now - 6 * day, nil), ("old-failed", nil, now - 30 * day),
                ("queued", nil, nil),
            ] as [(String, Date?, Date?)] {
                try await jobs.insert([
                    .kind: "k", .payload: "{}", .runAt: now - 40 * day, .attempts: 1, .dedupeKey: key,
                    .createdAt: now - 40 * day, .doneAt: done, .failedAt: failed,
                ])
            }
            let deliveries = TableWriter(NotificationDeliveriesTable.self, on: app.db)
            for (key, status, age) in [
                ("sent-old", "sent", 91.0), ("sent-new", "sent", 10.0), ("retrying-old", "retrying", 91.0),
                ("failed-old", "failed", 91.0),
            ] {
                try await deliveries.insert([
                    .owner: account.id, .channel: "webhook", .title: "t", .status: status, .attempts: 1,
                    .dedupeKey: key, .createdAt: now - age * day, .updatedAt: now - age * day,
                ])
            }
            let sessions = TableWriter(WebSessionsTable.self, on: app.db)
            for (digest, expires) in [("expired", now - 1), ("current", now + day)] {
                try await sessions.insert([
                    .owner: account.id, .secretDigest: digest, .createdAt: now - day, .expiresAt: expires,
                ])
            }
            let tokens = TableWriter(APITokensTable.self, on: app.db)
            for (digest, expires) in [("expired", now - 1), ("forever", nil)] as [(String, Date?)] {
                try await tokens.insert([
                    .owner: account.id, .label: digest, .secretDigest: digest, .createdAt: now - day,
                    .expiresAt: expires,
                ])
            }
            let attempts = TableWriter(SignInAttemptsTable.self, on: app.db)
            for (digest, expires) in [("abandoned", now - 1), ("under-way", now + 60)] {
                try await attempts.insert([
                    .stateDigest: digest, .provider: "test", .verifier: "v", .nonce: "n", .createdAt: now - 600,
                    .expiresAt: expires,
                ])
            }
            try await TableWriter(SignInConfirmationsTable.self, on: app.db).insert([
                .tokenDigest: "unconfirmed", .owner: account.id, .provider: "test", .subject: "s",
                .createdAt: now - 600,
                .expiresAt: now - 1,
            ])
            let sessionsBefore = try await self.count("web_sessions", app)
            let tokensBefore = try await self.count("api_tokens", app)

            let pruned = try await RecordRetention(database: app.db, retention: app.locifyConfig.retention).prune(
                now: now)
            XCTAssertEqual(
                pruned, RecordRetention.Pruned(finishedJobs: 1, sessions: 1, tokens: 1, signIns: 2), "\(database)")
            let underWay = try await self.count("sign_in_attempts", app)
            XCTAssertEqual(underWay, 1, "a sign-in still under way stays")
            let prunedDeliveries = try await DeliveryLogRetention(
                database: app.db, retention: app.locifyConfig.retention.deliveryLog
            ).prune(now: now)
            XCTAssertEqual(prunedDeliveries, 2, "the sent and the failed one, 91 days old")
            let keys = try await JobRecord.all(on: app.db).map(\.dedupeKey)
            XCTAssertEqual(keys, ["new-done", "old-failed", "queued"])
            let log = try await app.db.plainRows(
                #"SELECT "dedupe_key" FROM "notification_deliveries" ORDER BY "dedupe_key""#, columns: ["k"]
            ).map { try $0.requiredText(0) }
            XCTAssertEqual(log, ["retrying-old", "sent-new"], "a delivery still being retried stays")
            let sessionsAfter = try await self.count("web_sessions", app)
            let tokensAfter = try await self.count("api_tokens", app)
            XCTAssertEqual(sessionsAfter, sessionsBefore - 1)
            XCTAssertEqual(tokensAfter, tokensBefore - 1)
            let again = try await RecordRetention(database: app.db, retention: app.locifyConfig.retention).prune(
                now: now)
            XCTAssertEqual(again, RecordRetention.Pruned(), "nothing twice")
            let deliveriesAgain = try await DeliveryLogRetention(
                database: app.db, retention: app.locifyConfig.retention.deliveryLog
            ).prune(now: now)
            XCTAssertEqual(deliveriesAgain, 0)
        }
    }

    private func count(_ table: String, _ app: Application) async throws -> Int {
        try await app.db.plainRows(#"SELECT COUNT(*) AS "n" FROM "\#(unsafeRaw: table)""#, columns: ["n"]).first?
            .requiredInteger(0) ?? 0
    }

    func testAnOperatorSeesFailedJobsAndRetriesOrDiscardsThem() async throws {
        try await forEachDatabase { app, clock, database in
            let jobs = TableWriter(JobsTable.self, on: app.db)
            var ids: [String: Int] = [:]
            for (key, failed) in [("broken", true), ("gone", true), ("waiting", false)] {
                ids[key] = try await jobs.insert([
                    .kind: "places.import", .payload: "{}", .runAt: clock.now, .attempts: 8, .dedupeKey: key,
                    .createdAt: clock.now, .failedAt: failed ? clock.now : nil, .lastError: failed ? "boom" : nil,
                ])
            }
            let administration = app.jobAdministration
            let failed = try await administration.jobs(in: ["failed"])
            XCTAssertEqual(failed.map(\.id), [ids["broken"], ids["gone"]].compactMap { $0 }, "\(database)")
            XCTAssertEqual(failed.first?.lastError, "boom")
            let counts = try await administration.counts()
            XCTAssertEqual(
                counts,
                [
                    .init(kind: "places.import", state: "failed", count: 2),
                    .init(kind: "places.import", state: "queued", count: 1),
                ])

            let browser = WebClient(app: app)
            _ = try await browser.register()
            let hidden = try await browser.get("/settings/server")
            XCTAssertEqual(hidden.status, .notFound, "only an administrator has the page")
            let settings = try await browser.get("/settings")
            XCTAssertFalse(settings.text.contains("/settings/server"))
            app.locifyConfig.adminEmails = ["grace@example.com"]
            let adminSettings = try await browser.get("/settings")
            XCTAssertTrue(adminSettings.text.contains(#"href="/settings/server""#))
            let page = try await browser.get("/settings/server")
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.text.contains("boom"))
            let retried = try await browser.post("/settings/server/jobs/\(ids["broken"] ?? 0)/retry", form: [:])
            XCTAssertEqual(retried.status, .seeOther)
            let afterRetry = try await browser.get("/settings/server")
            XCTAssertTrue(afterRetry.text.contains("Job \(ids["broken"] ?? 0) is queued again."))
            let refused = try await browser.post("/settings/server/jobs/\(ids["waiting"] ?? 0)/discard", form: [:])
            XCTAssertEqual(refused.status, .seeOther)
            let afterRefusal = try await browser.get("/settings/server")
            XCTAssertTrue(
                afterRefusal.text.contains(
                    "Job \(ids["waiting"] ?? 0) is queued; only a failed job can be retried or discarded."))
            try await administration.discard(ids["gone"] ?? 0)
            do {
                try await administration.discard(ids["gone"] ?? 0)
                XCTFail("discarding twice must fail")
            } catch let problem as JobAdministration.Problem {
                XCTAssertEqual(problem, .noSuchJob(ids["gone"] ?? 0))
            }
            let left = try await JobRecord.all(on: app.db)
            XCTAssertEqual(left.map(\.dedupeKey), ["broken", "waiting"])
            XCTAssertEqual(left.first?.attempts, 0, "a retried job counts its attempts afresh")
            XCTAssertEqual(left.first?.state, .queued)
            do {
                _ = try await administration.jobs(in: ["stuck"])
                XCTFail("an unknown state must fail")
            } catch let problem as JobAdministration.Problem {
                XCTAssertEqual(problem.description, "“stuck” is not a job state: say queued, running, done, failed.")
            }
        }
    }
}
