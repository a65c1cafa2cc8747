import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// The Notifications page, Settings → Notifications and the navigation's counts, through the web pages.
final class NotificationsWebTests: XCTestCase {
    func testAReminderDueTodayIsCountedNotifiedAndMarkedRead() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            _ = try await ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
                .create(
                    contactID: ada.id,
                    ReminderDraft(title: "Call", initialDate: "2024-04-04", frequencyType: "month"))
            try await app.notificationPlanner.plan(now: clock.now)

            var page = try await browser.get("/notifications")
            XCTAssertEqual(page.status, .ok, "\(database)")
            XCTAssertTrue(page.text.contains("No notifications yet."))
            XCTAssertTrue(page.text.contains(#"<span class="visually-hidden">, 1 due today</span>"#), "\(database)")
            XCTAssertFalse(page.text.contains("unread</span>"))

            // 09:00 has passed today (it is 10:06); a later time of day still tells today's reminders.
            let saved = try await browser.post(
                "/settings/notifications", form: ["time_of_day": "10:30", "in_app": "on"])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            clock.advance(by: 30 * 60)
            try await app.notificationPlanner.plan(now: clock.now)
            try await app.jobRunner.runDue(now: clock.now)

            page = try await browser.get("/notifications")
            XCTAssertTrue(page.text.contains("Ada Lovelace: Call"), page.text)
            XCTAssertTrue(page.text.contains("Today, Saturday 4 May 2024."))
            XCTAssertTrue(page.text.contains(#"href="/contacts/\#(ada.id)""#))
            XCTAssertTrue(page.text.contains(#"<span class="visually-hidden">, 1 unread</span>"#))
            let latest = try await browser.get("/notifications/latest.json?after=0")
            XCTAssertEqual(latest.headers.contentType, .json)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(latest.text.utf8)) as? [String: Any])
            XCTAssertEqual(answer["unread"] as? Int, 1)
            let items = try XCTUnwrap(answer["notifications"] as? [[String: Any]])
            XCTAssertEqual(items.first?["title"] as? String, "Ada Lovelace: Call")
            let id = try XCTUnwrap(items.first?["id"] as? Int)
            let none = try await browser.get("/notifications/latest.json?after=\(id)")
            XCTAssertTrue(none.text.contains(#""notifications":[]"#), none.text)

            // Someone else's notification is not found, and changes nothing.
            let other = WebClient(app: app)
            _ = try await other.register(name: "Other", email: "other@example.com")
            try await other.get("/notifications")
            let refused = try await other.post("/notifications/\(id)/read", form: [:])
            XCTAssertEqual(refused.status, .notFound)

            let read = try await browser.post("/notifications/\(id)/read", form: [:])
            XCTAssertEqual(read.status, .seeOther)
            page = try await browser.get("/notifications")
            XCTAssertFalse(page.text.contains("unread</span>"))
            XCTAssertFalse(page.text.contains("Mark all as read"))
            let unread = try await NotificationInbox(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            ).unreadCount()
            XCTAssertEqual(unread, 0)
        }
    }

    func testTheSettingsFormSaysWhatIsWrongAndKeepsWhatWasThere() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let page = try await browser.get("/settings/notifications")
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.text.contains(#"value="09:00""#), "the default time")
            XCTAssertTrue(page.text.contains("/feeds/"), "the feed's address")
            XCTAssertTrue(page.text.contains("This server cannot send e-mail"))

            let refused = try await browser.post(
                "/settings/notifications",
                form: [
                    "time_of_day": "9 o'clock", "email": "on", "webhook_url": "https://ntfy.sh/",
                    "webhook_preset": "ntfy", "week_starts_on": "0",
                ])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            for message in [
                "Time of day must be a time such as 09:00.", "its administrator has not set LOCIFY_SENDMAIL",
                "An ntfy address names its topic", "The week can start on any day",
            ] {
                XCTAssertTrue(refused.text.contains(message), message)
            }
            XCTAssertTrue(
                refused.text.contains(#"value="9 o&#39;clock""#) || refused.text.contains("9 o"), "typed text stays")
            let unchanged = try await NotificationSettingsService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            ).preferences()
            XCTAssertEqual(unchanged, .standard)

            let saved = try await browser.post(
                "/settings/notifications",
                form: [
                    "time_of_day": "07:30", "advance_1": "on", "advance_14": "on", "webhook_url": "https://ntfy.sh/ada",
                    "webhook_preset": "ntfy", "week_starts_on": "1",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            let stored = try await NotificationSettingsService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies
            ).preferences()
            XCTAssertEqual(
                stored,
                NotificationPreferences(
                    minutesAfterMidnight: 450, advanceDays: [1, 14], inApp: false,
                    webhook: WebhookTarget(url: "https://ntfy.sh/ada", preset: .ntfy), weekStartsOn: 1))
            let shown = try await browser.get("/settings/notifications")
            XCTAssertTrue(shown.text.contains("Your notification settings were saved."))
            XCTAssertTrue(shown.text.contains(#"value="07:30""#))
            XCTAssertTrue(shown.text.contains(#"id="advance_14" name="advance_14" type="checkbox" checked"#))
            XCTAssertTrue(shown.text.contains(#"<option value="ntfy" selected>"#))
        }
    }

    func testSendTestReachesTheWebhookAndTheLogSaysHowItWent() async throws {
        try await forEachDatabase { app, _, _ in
            let failing = NIOLockedValueBox(false)
            let serve: StandInRoutes = { routes in
                routes.post("message") { _ -> HTTPStatus in failing.withLockedValue { $0 } ? .unauthorized : .ok }
            }
            try await withStandIn(serve) { standIn in
                app.dependencies.webhooks = LiveWebhookSender(
                    http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"))
                let browser = WebClient(app: app)
                _ = try await browser.register()
                try await browser.get("/settings/notifications")
                let nothing = try await browser.post("/settings/notifications/test", form: [:])
                XCTAssertEqual(nothing.status, .seeOther)
                var page = try await browser.get("/settings/notifications")
                XCTAssertTrue(page.text.contains("Nothing to test"))

                _ = try await browser.post(
                    "/settings/notifications",
                    form: [
                        "time_of_day": "09:00", "in_app": "on",
                        "webhook_url": standIn.baseURL + "/message?token=secret",
                        "webhook_preset": "gotify",
                    ])
                try await browser.get("/settings/notifications")
                _ = try await browser.post("/settings/notifications/test", form: [:])
                page = try await browser.get("/settings/notifications")
                XCTAssertTrue(page.text.contains("The webhook accepted the test."), page.text)
                XCTAssertEqual(standIn.requests.count, 1)
                let body = try XCTUnwrap(
                    try JSONSerialization.jsonObject(with: standIn.requests[0].body) as? [String: Any])
                XCTAssertEqual(body["title"] as? String, "Grace Hopper: This is a test from Locify")
                XCTAssertEqual(standIn.requests[0].query, "token=secret")

                failing.withLockedValue { $0 = true }
                _ = try await browser.post("/settings/notifications/test", form: [:])
                page = try await browser.get("/settings/notifications")
                XCTAssertTrue(page.text.contains("The webhook test failed: The webhook answered with status 401."))
                XCTAssertTrue(page.text.contains(#"<td class="problem">failed"#))
                XCTAssertTrue(page.text.contains("sent <span class=\"hint\">A test.</span>"))
            }
        }
    }
}
