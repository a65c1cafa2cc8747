import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import XCTVapor

@testable import LocifyServer

/// The notification scheduler stepped with the test clock: planned at the user's moment, delivered once
/// per channel, late when the server was down, never twice, nothing stale.
final class NotificationDeliveryTests: XCTestCase {
    /// A webhook stand-in that answers with the statuses it is given in turn (then 200), recording bodies.
    final class Hook: Sendable {
        let statuses: NIOLockedValueBox<[HTTPStatus]>

        init(_ statuses: [HTTPStatus] = []) {
            self.statuses = NIOLockedValueBox(statuses)
        }

        var routes: StandInRoutes {
            { routes in
                routes.post("hook") { _ -> HTTPStatus in
                    self.statuses.withLockedValue { $0.isEmpty ? .ok : $0.removeFirst() }
                }
            }
        }
    }

    func useWebhooks(_ app: Application) {
        app.dependencies.webhooks = LiveWebhookSender(http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"))
    }

    func instant(_ text: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: text))
    }

    /// Moves the clock to `text`, plans and runs what is due, as the first worker does on each pass.
    @discardableResult
    func step(_ app: Application, _ clock: TestClock, to text: String) async throws -> Int {
        clock.advance(by: try instant(text).timeIntervalSince(clock.now))
        try await app.notificationPlanner.plan(now: clock.now)
        return try await app.jobRunner.runDue(now: clock.now)
    }

    /// Another server process on the same PostgreSQL database: its own application and connection pool.
    func withAnotherServer(like app: Application, _ body: (Application) async throws -> Void) async throws {
        let other = try await Application.make(.testing)
        do {
            try await configure(other, config: app.locifyConfig, dependencies: app.dependencies)
            try await body(other)
        } catch {
            try? await other.asyncShutdown()
            throw error
        }
        try await other.asyncShutdown()
    }

    /// An account with one contact, Ada, on Saturday 4 May at noon, told by webhook (to `standIn`) only.
    func webhookOnlyAccount(_ app: Application, _ clock: TestClock, _ standIn: LocalStandIn) async throws
        -> (TestAccount, Contact)
    {
        useWebhooks(app)
        let account = try await app.makeAccount()
        let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
        try await step(app, clock, to: "2024-05-04T12:00:00Z")
        try await settings(app, account).save(
            NotificationPreferences(
                inApp: false, webhook: WebhookTarget(url: standIn.baseURL + "/hook", preset: .json)),
            timeZone: .gmt)
        return (account, ada)
    }

    func settings(_ app: Application, _ account: TestAccount) -> NotificationSettingsService {
        NotificationSettingsService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
    }

    func reminders(_ app: Application, _ account: TestAccount) -> ReminderService {
        ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
    }

    func inApp(_ app: Application, _ account: TestAccount) async throws -> [InAppNotification] {
        try await NotificationInbox(database: app.db, ownerID: account.id, dependencies: app.dependencies).recent()
    }

    func deliveries(_ app: Application, _ account: TestAccount) async throws -> [NotificationDelivery] {
        try await NotificationInbox(database: app.db, ownerID: account.id, dependencies: app.dependencies).deliveries()
    }

    func setTimeZone(_ app: Application, _ account: TestAccount, _ identifier: String) async throws {
        _ = try await app.accounts.updateProfile(
            of: account.id, with: AccountDraft(name: "Ada Lovelace", email: account.email, timezone: identifier))
    }

    func testEachNoticeGoesOutOnceOnEveryChannelAtTheUsersTime() async throws {
        try await forEachDatabase { app, clock, database in
            let hook = Hook()
            try await withStandIn(hook.routes) { standIn in
                self.useWebhooks(app)
                let mail = NIOLockedValueBox<[MailMessage]>([])
                app.dependencies.mailer = FakeMailer { message in mail.withLockedValue { $0.append(message) } }
                app.locifyConfig.publicBaseURL = "https://locify.example"
                let account = try await app.makeAccount()
                let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
                try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
                try await self.settings(app, account).save(
                    NotificationPreferences(
                        advanceDays: [7], inApp: true, email: true,
                        webhook: WebhookTarget(url: standIn.baseURL + "/hook", preset: .json)),
                    timeZone: .gmt)
                let call = try await self.reminders(app, account).create(
                    contactID: ada.id,
                    ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "month"))
                _ = try await self.reminders(app, account).create(
                    contactID: ada.id,
                    ReminderDraft(title: "Visa", initialDate: "2024-05-12", frequencyType: "one_time"))

                let before = try await self.step(app, clock, to: "2024-05-05T08:59:00Z")
                XCTAssertEqual(before, 0, "\(database): nothing before 09:00")
                let ran = try await self.step(app, clock, to: "2024-05-05T09:00:30Z")
                XCTAssertEqual(ran, 6, "two notices on three channels")
                let again = try await self.step(app, clock, to: "2024-05-05T09:05:00Z")
                XCTAssertEqual(again, 0, "planned once")

                let notices = try await self.inApp(app, account)
                XCTAssertEqual(Set(notices.map(\.title)), ["Ada Lovelace: Call", "Ada Lovelace: Visa"])
                XCTAssertEqual(
                    Set(notices.map(\.body)),
                    ["Today, Sunday 5 May 2024.", "In 7 days, on Sunday 12 May 2024."])
                XCTAssertEqual(standIn.requests.count, 2)
                let bodies = try standIn.requests.map {
                    try XCTUnwrap(JSONSerialization.jsonObject(with: $0.body) as? [String: Any])
                }
                let callBody = try XCTUnwrap(bodies.first { $0["reminder_id"] as? Int == call.id })
                XCTAssertEqual(callBody["title"] as? String, "Ada Lovelace: Call")
                XCTAssertEqual(callBody["date"] as? String, "2024-05-05")
                XCTAssertEqual(callBody["link"] as? String, "https://locify.example/contacts/\(ada.id)")
                XCTAssertEqual((callBody["contact"] as? [String: Any])?["name"] as? String, "Ada Lovelace")
                XCTAssertEqual(callBody["late"] as? Bool, false)
                let messages = mail.withLockedValue { $0 }
                XCTAssertEqual(messages.count, 2)
                XCTAssertEqual(Set(messages.map(\.to)), [[account.email]])
                XCTAssertTrue(messages.contains { $0.subject == "Ada Lovelace: Call" })
                XCTAssertTrue(messages.allSatisfy { $0.body.contains("https://locify.example/contacts/\(ada.id)") })
                let log = try await self.deliveries(app, account)
                XCTAssertEqual(log.map(\.status), ["sent", "sent", "sent", "sent"])

                // A month later, planned in one step as after a long stop: the Visa on its day (12 May), the
                // June call a week ahead (29 May) and on its day.
                try await self.step(app, clock, to: "2024-06-05T09:00:00Z")
                XCTAssertEqual(standIn.requests.count, 5)
                let after = try await self.inApp(app, account)
                XCTAssertEqual(
                    after.prefix(3).map(\.body).sorted(),
                    [
                        "On Sunday 12 May 2024. Sent late: it was due on Sunday 12 May 2024, while the server was not running.",
                        "On Wednesday 5 June 2024. Sent late: it was due on Wednesday 29 May 2024, while the server was not running.",
                        "Today, Wednesday 5 June 2024.",
                    ])
            }
        }
    }

    func testEmailGoesThroughTheSendmailCommandAsAPlainTextMessage() async throws {
        try await forEachDatabase { app, clock, _ in
            let outbox = FileManager.default.temporaryDirectory.appendingPathComponent(
                "locify-mail-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: outbox) }
            // What LOCIFY_SENDMAIL names: a command that reads the whole message on standard input.
            app.dependencies.mailer = CommandMailer(command: "cat > '\(outbox.path)'")
            app.locifyConfig.outside.mailCommand = "cat"
            app.locifyConfig.outside.mailFrom = "Locify <locify@example.org>"
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Zoë", lastName: "Müller"))
            try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
            try await self.settings(app, account).save(
                NotificationPreferences(inApp: false, email: true), timeZone: .gmt)
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Gratulieren", initialDate: "2024-05-05", frequencyType: "year")
            )
            try await self.step(app, clock, to: "2024-05-05T09:00:00Z")
            let message = try String(contentsOf: outbox, encoding: .utf8)
            XCTAssertTrue(message.hasPrefix("From: Locify <locify@example.org>\nTo: ada@example.com\n"), message)
            XCTAssertTrue(
                message.contains("Subject: =?UTF-8?B?\(Data("Zoë Müller: Gratulieren".utf8).base64EncodedString())?="))
            XCTAssertTrue(message.contains("Content-Type: text/plain; charset=utf-8"))
            XCTAssertTrue(
                message.contains("\n\nToday, Sunday 5 May 2024.\n\nhttp://127.0.0.1:8080/contacts/\(ada.id)\n"))
            XCTAssertTrue(message.contains("Message-ID: <00000000-"), message)
            let log = try await self.deliveries(app, account)
            XCTAssertEqual(log.map(\.channel), [.email])
            XCTAssertEqual(log.map(\.status), ["sent"])
        }
    }

    func testAServerDownAtTheMomentTellsWhenItIsBackAndSaysItIsLate() async throws {
        try await forEachDatabase { app, clock, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Soon", initialDate: "2024-05-05", frequencyType: "one_time"))
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Later", initialDate: "2024-05-06", frequencyType: "one_time"))
            // Down from before Sunday's 09:00 until Monday 10:00: Sunday's is over a day late, Monday's is not.
            try await self.step(app, clock, to: "2024-05-06T10:00:00Z")
            let notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.count, 2)
            let soon = try XCTUnwrap(notices.first { $0.title == "Ada: Soon" })
            XCTAssertTrue(soon.isLate)
            XCTAssertTrue(soon.body.contains("Sent late: it was due on Sunday 5 May 2024"), soon.body)
            let later = try XCTUnwrap(notices.first { $0.title == "Ada: Later" })
            XCTAssertFalse(later.isLate)
        }
    }

    func testWhatWasQueuedBeforeARestartIsDeliveredAfterItOnce() async throws {
        // PostgreSQL only: a second application on the same database stands for the restarted server,
        // and the in-memory SQLite of the tests cannot be shared between two applications.
        try await withApp(.postgres) { app, clock in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "week"))
            clock.advance(by: try self.instant("2024-05-05T09:00:00Z").timeIntervalSince(clock.now))
            // The first server plans the notice and stops before running it.
            let queued = try await app.notificationPlanner.plan(now: clock.now)
            XCTAssertEqual(queued, 1)
            try await self.withAnotherServer(like: app) { restarted in
                clock.advance(by: 120)
                try await restarted.notificationPlanner.plan(now: clock.now)
                let ran = try await restarted.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(ran, 1, "the queued notice, and no second one planned for the same moment")
            }
            try await self.withAnotherServer(like: app) { again in
                let ranAgain = try await again.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(ranAgain, 0)
            }
            let notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.map(\.title), ["Ada: Call"])
        }
    }

    /// Leaves what a server killed in the middle of sending leaves behind: the job claimed by a worker
    /// that is gone, and the delivery logged as being sent on `channel`.
    func interruptTheOnlyJob(_ app: Application, _ clock: TestClock, _ account: TestAccount, on channel: String)
        async throws -> JobRecord
    {
        let queued = try await JobRecord.all(on: app.db)
        let job = try XCTUnwrap(queued.first)
        let sql = try app.db.sqlDatabase()
        try await sql.raw(
            """
            UPDATE "jobs" SET "locked_by" = 'dead', "attempts" = 1, \
            "locked_until" = \(bind: clock.now.addingTimeInterval(app.jobRunner.claimLifetime)) \
            WHERE "id" = \(bind: job.id)
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO "notification_deliveries" ("user_id", "channel", "title", "status", "attempts", \
            "dedupe_key", "created_at", "updated_at") VALUES (\(bind: account.id), \(bind: channel), 'Ada: Call', \
            'sending', 1, \(bind: job.dedupeKey), \(bind: clock.now), \(bind: clock.now))
            """
        ).run()
        return job
    }

    func testAWebhookInterruptedHalfWayIsSentAgainWithTheSameIdempotencyKey() async throws {
        try await forEachDatabase { app, clock, _ in
            let hook = Hook()
            try await withStandIn(hook.routes) { standIn in
                let (account, ada) = try await self.webhookOnlyAccount(app, clock, standIn)
                _ = try await self.reminders(app, account).create(
                    contactID: ada.id, ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "week"))
                clock.advance(by: try self.instant("2024-05-05T09:00:00Z").timeIntervalSince(clock.now))
                try await app.notificationPlanner.plan(now: clock.now)
                let job = try await self.interruptTheOnlyJob(app, clock, account, on: "webhook")

                let early = try await app.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(early, 0, "the dead worker's claim still holds")
                clock.advance(by: app.jobRunner.claimLifetime + 1)
                let ran = try await app.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(ran, 1, "the claim expired and the job ran again")
                XCTAssertEqual(standIn.requests.count, 1, "it posted again")
                XCTAssertEqual(
                    standIn.requests.first?.headers.first(name: "Idempotency-Key"), job.dedupeKey,
                    "under the key the first try carried, so the receiver can drop a second copy")
                let log = try await self.deliveries(app, account)
                XCTAssertEqual(log.map(\.status), ["sent"])
                XCTAssertEqual(log.first?.detail, NotificationOutbox.resentAfterInterruption)
                let finished = try await JobRecord.all(on: app.db)
                XCTAssertEqual(finished.first?.state, .done)
            }
        }
    }

    func testAnEmailInterruptedHalfWayIsNeverSentAgain() async throws {
        try await forEachDatabase { app, clock, _ in
            let mail = NIOLockedValueBox<[MailMessage]>([])
            app.dependencies.mailer = FakeMailer { message in mail.withLockedValue { $0.append(message) } }
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
            try await self.settings(app, account).save(
                NotificationPreferences(inApp: false, email: true), timeZone: .gmt)
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "week"))
            clock.advance(by: try self.instant("2024-05-05T09:00:00Z").timeIntervalSince(clock.now))
            try await app.notificationPlanner.plan(now: clock.now)
            _ = try await self.interruptTheOnlyJob(app, clock, account, on: "email")

            clock.advance(by: app.jobRunner.claimLifetime + 1)
            let ran = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ran, 1, "the claim expired and the job ran again")
            XCTAssertEqual(mail.withLockedValue { $0.count }, 0, "but an e-mail has no key to tell a copy by")
            let log = try await self.deliveries(app, account)
            XCTAssertEqual(log.map(\.status), ["interrupted"])
            let finished = try await JobRecord.all(on: app.db)
            XCTAssertEqual(finished.first?.state, .done)
        }
    }

    func testAFailingWebhookIsRetriedWithBackOffAndTheLogSaysSo() async throws {
        try await forEachDatabase { app, clock, _ in
            let hook = Hook([.internalServerError, .badGateway])
            try await withStandIn(hook.routes) { standIn in
                let (account, ada) = try await self.webhookOnlyAccount(app, clock, standIn)
                _ = try await self.reminders(app, account).create(
                    contactID: ada.id, ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "year"))
                try await self.step(app, clock, to: "2024-05-05T09:00:00Z")
                var log = try await self.deliveries(app, account)
                XCTAssertEqual(log.map(\.status), ["retrying"])
                XCTAssertEqual(log.first?.detail, "The webhook answered with status 500")
                let jobs = try await JobRecord.all(on: app.db)
                let job = try XCTUnwrap(jobs.first)
                XCTAssertEqual(
                    job.runAt.timeIntervalSince(clock.now), JobRunner.backOff(attempt: 1, jobID: job.id), accuracy: 1)
                let tooSoon = try await app.jobRunner.runDue(now: clock.now.addingTimeInterval(10))
                XCTAssertEqual(tooSoon, 0)
                clock.advance(by: JobRunner.backOff(attempt: 1, jobID: job.id) + 1)
                try await app.jobRunner.runDue(now: clock.now)
                clock.advance(by: JobRunner.backOff(attempt: 2, jobID: job.id) + 1)
                try await app.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(standIn.requests.count, 3, "500, 502, then accepted")
                log = try await self.deliveries(app, account)
                XCTAssertEqual(log.map(\.status), ["sent"])
                XCTAssertEqual(log.first?.attempts, 3)
            }
        }
    }

    func testARemindersEditOrDeletionBeforeItsDeliverySendsNothingStale() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
            let service = self.reminders(app, account)
            let moved = try await service.create(
                contactID: ada.id, ReminderDraft(title: "Moved", initialDate: "2024-05-05", frequencyType: "year"))
            let deleted = try await service.create(
                contactID: ada.id, ReminderDraft(title: "Deleted", initialDate: "2024-05-05", frequencyType: "year"))
            let renamed = try await service.create(
                contactID: ada.id, ReminderDraft(title: "Old title", initialDate: "2024-05-05", frequencyType: "year"))
            clock.advance(by: try self.instant("2024-05-05T09:00:00Z").timeIntervalSince(clock.now))
            let queued = try await app.notificationPlanner.plan(now: clock.now)
            XCTAssertEqual(queued, 3, "\(database)")
            _ = try await service.update(moved.id, contactID: nil) { draft in
                var changed = draft
                changed.initialDate = "2024-05-09"
                return changed
            }
            try await service.delete(deleted.id)
            _ = try await service.update(renamed.id, contactID: nil) { draft in
                var changed = draft
                changed.title = "New title"
                return changed
            }
            try await app.jobRunner.runDue(now: clock.now)
            let notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.map(\.title), ["Ada: New title"])
        }
    }
}
