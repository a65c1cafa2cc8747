import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import XCTVapor

@testable import LocifyServer

/// Delivery across the clock's changes (daylight saving, a new time zone) and across two servers.
extension NotificationDeliveryTests {
    func testDaylightSavingChangesNeitherSkipNorRepeatADay() async throws {
        try await forEachDatabase { app, clock, _ in
            let account = try await app.makeAccount()
            try await self.setTimeZone(app, account, "Europe/Berlin")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            for (start, firstDay) in [("2024-03-27T12:00:00Z", "2024-03-28"), ("2024-10-23T12:00:00Z", "2024-10-24")] {
                try await self.step(app, clock, to: start)
                // 02:30: skipped by the spring change, doubled by the autumn one.
                try await self.settings(app, account).save(
                    NotificationPreferences(minutesAfterMidnight: 150),
                    timeZone: try XCTUnwrap(TimeZone(identifier: "Europe/Berlin")))
                try await self.step(app, clock, to: start)
                let first = try XCTUnwrap(CalendarDate(iso8601: firstDay))
                // Seven weekly reminders, one for each day of the week: a notice every day.
                for offset in 0..<7 {
                    _ = try await self.reminders(app, account).create(
                        contactID: ada.id,
                        ReminderDraft(
                            title: "Day \(offset)", initialDate: first.adding(days: offset)?.description,
                            frequencyType: "week"))
                }
                for _ in 0..<(7 * 24 * 2) {
                    clock.advance(by: 30 * 60)
                    try await app.notificationPlanner.plan(now: clock.now)
                    try await app.jobRunner.runDue(now: clock.now)
                }
                let notices = try await self.inApp(app, account).filter { $0.occurrence.map { $0 >= first } == true }
                let days = notices.compactMap(\.occurrence).sorted()
                XCTAssertEqual(days, (0..<7).compactMap { first.adding(days: $0) }, "\(firstDay): each day once")
                try await app.db.write(RemindersTable.self, ownedBy: account.id, at: clock.now) {
                    try await $0.delete(where: "1 = 1")
                }
            }
        }
    }

    /// A reminder made for today after the day's notification time is told at once, and once: so are an edit
    /// of it that keeps today and a second one made after it, with nothing told twice.
    func testAReminderMadeTodayAfterTheNotificationTimeIsToldAtOnceAndOnce() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            try await self.setTimeZone(app, account, "Europe/Berlin")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-06T05:00:00Z")
            func make(_ title: String) async throws -> Int {
                let made = try await app.send(
                    .POST, "/api/reminders", headers: account.bearer,
                    json:
                        #"{"contact_id":\#(ada.id),"title":"\#(title)","initial_date":"2024-05-06","frequency_type":"one_time"}"#
                )
                XCTAssertEqual(made.status, .created, made.text)
                return try XCTUnwrap(try made.json()["data"] as? [String: Any])["id"] as? Int ?? 0
            }
            _ = try await make("Early")
            // 09:00 in Berlin is 07:00 UTC.
            try await self.step(app, clock, to: "2024-05-06T08:00:00Z")
            var told = try await self.inApp(app, account).map { $0.title + " " + $0.body }
            XCTAssertEqual(told.count, 1, "\(database): \(told)")

            // Made at 10:00 for today: told at the planner's next look, a minute later.
            let late = try await make("Late")
            try await self.step(app, clock, to: "2024-05-06T08:01:00Z")
            told = try await self.inApp(app, account).map { $0.title + " " + $0.body }
            XCTAssertEqual(told.count, 2, "\(database): \(told)")
            XCTAssertTrue(told.contains { $0.contains("Late") }, "\(told)")

            // An edit that keeps today tells nothing again, and neither does another look.
            let edited = try await app.send(
                .PUT, "/api/reminders/\(late)", headers: account.bearer,
                json:
                    #"{"contact_id":\#(ada.id),"title":"Later","initial_date":"2024-05-06","frequency_type":"one_time"}"#
            )
            XCTAssertEqual(edited.status, .ok, edited.text)
            try await self.step(app, clock, to: "2024-05-06T08:30:00Z")
            try await self.step(app, clock, to: "2024-05-06T12:00:00Z")
            let last = try await self.inApp(app, account)
            XCTAssertEqual(last.count, 2, "nothing is told twice")
        }
    }

    func testATimezoneChangeMovesNotificationsToTheNewLocalTime() async throws {
        try await forEachDatabase { app, clock, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            try await self.step(app, clock, to: "2024-05-05T12:00:00Z")
            _ = try await self.reminders(app, account).create(
                contactID: ada.id, ReminderDraft(title: "Call", initialDate: "2024-05-06", frequencyType: "week"))
            try await browser.get("/settings")
            let saved = try await browser.post(
                "/settings/profile",
                form: [
                    "name": "Grace Hopper", "email": "grace@example.com", "timezone": "America/New_York",
                    "maps_app": "openstreetmap",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            try await self.step(app, clock, to: "2024-05-06T09:00:00Z")
            var notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.count, 0, "09:00 UTC is 05:00 in New York")
            try await self.step(app, clock, to: "2024-05-06T13:00:00Z")
            notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.count, 1, "09:00 in New York")

            // Moving east past the day's moment: Tokyo's 09:00 on the 13th was 00:00 UTC, already gone when
            // the change is made at 00:30 UTC; that day's notice still goes out, at once.
            try await self.step(app, clock, to: "2024-05-13T00:30:00Z")
            try await browser.get("/settings")
            _ = try await browser.post(
                "/settings/profile",
                form: [
                    "name": "Grace Hopper", "email": "grace@example.com", "timezone": "Asia/Tokyo",
                    "maps_app": "openstreetmap",
                ])
            try await self.step(app, clock, to: "2024-05-13T00:31:00Z")
            notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.count, 2)
            try await self.step(app, clock, to: "2024-05-13T13:00:00Z")
            notices = try await self.inApp(app, account)
            XCTAssertEqual(notices.count, 2, "and once only: not again at New York's 09:00")
        }
    }

    func testTwoServersOnOnePostgreSQLDeliverEachOfFiftyNoticesOnce() async throws {
        // PostgreSQL only: several servers share one database only there (claims use FOR UPDATE SKIP LOCKED).
        try await withApp(.postgres) { app, clock in
            let hook = Hook()
            try await withStandIn(hook.routes) { standIn in
                self.useWebhooks(app)
                let account = try await app.makeAccount()
                try await self.step(app, clock, to: "2024-05-04T12:00:00Z")
                try await self.settings(app, account).save(
                    NotificationPreferences(webhook: WebhookTarget(url: standIn.baseURL + "/hook", preset: .json)),
                    timeZone: .gmt)
                for number in 1...50 {
                    let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Friend\(number)"))
                    _ = try await self.reminders(app, account).create(
                        contactID: contact.id,
                        ReminderDraft(title: "Call \(number)", initialDate: "2024-05-05", frequencyType: "year"))
                }
                clock.advance(by: try self.instant("2024-05-05T09:00:00Z").timeIntervalSince(clock.now))
                let now = clock.now
                try await self.withAnotherServer(like: app) { other in
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for server in [app, other] {
                            let planner = server.notificationPlanner
                            let runner = server.jobRunner
                            group.addTask {
                                try await planner.plan(now: now)
                                return try await runner.runDue(now: now)
                            }
                        }
                        var ran = 0
                        for try await count in group { ran += count }
                        XCTAssertEqual(ran, 100, "fifty notices on two channels, each run by one server")
                    }
                }
                let notices = try await self.inApp(app, account)
                XCTAssertEqual(notices.count, 50)
                XCTAssertEqual(
                    Set(notices.map(\.title)), Set((1...50).map { "Friend\($0): Call \($0)" }),
                    "each names its contact and title")
                XCTAssertEqual(standIn.requests.count, 50)
                let titles = try standIn.requests.map {
                    try XCTUnwrap(JSONSerialization.jsonObject(with: $0.body) as? [String: Any])["title"] as? String
                }
                XCTAssertEqual(Set(titles.compactMap { $0 }).count, 50)
            }
        }
    }
}

extension TestClock {
    var today: CalendarDate { CalendarDate(now, in: .gmt) }
}
