import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The calendar feed: found by its secret only, cached by ETag, and equal to the API's occurrences.
final class ReminderFeedTests: XCTestCase {
    /// Expands the RRULEs Locify writes, from RFC 5545's rules rather than Locify's own recurrence code:
    /// a monthly or yearly set of candidate days, of which BYSETPOS=-1 takes the last that exists.
    private func expand(start: CalendarDate, rule: String?, through end: CalendarDate) -> [CalendarDate] {
        guard let rule else { return [start] }
        var parts: [String: String] = [:]
        for pair in rule.split(separator: ";") {
            let keyValue = pair.split(separator: "=").map(String.init)
            parts[keyValue[0]] = keyValue[1]
        }
        let interval = Int(parts["INTERVAL"] ?? "1") ?? 1
        let days = parts["BYMONTHDAY"]?.split(separator: ",").compactMap { Int($0) } ?? [start.day]
        var result: [CalendarDate] = []
        var index = 0
        while true {
            var candidates: [CalendarDate] = []
            switch parts["FREQ"] {
            case "WEEKLY":
                candidates = [start.adding(days: 7 * interval * index)].compactMap { $0 }
            case "MONTHLY", "YEARLY":
                let months = (parts["FREQ"] == "MONTHLY" ? 1 : 12) * interval * index
                let total = start.year * 12 + (start.month - 1) + months
                let month = parts["BYMONTH"].flatMap { Int($0) } ?? (total % 12 + 1)
                candidates = days.compactMap { CalendarDate(year: total / 12, month: month, day: $0) }
                if parts["BYSETPOS"] == "-1" { candidates = candidates.suffix(1) }
            default:
                XCTFail("unexpected rule \(rule)")
                return result
            }
            guard let first = candidates.first, first <= end else { return result }
            result += candidates
            index += 1
        }
    }

    func testTheFeedIsTheRemindersAsCalendarEventsAndMatchesTheAPI() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let service = ReminderService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            for (title, date, type, number) in [
                ("Rent", "2024-01-31", "month", 1), ("Leap", "2024-02-29", "year", 1),
                ("Walk", "2024-05-01", "week", 2),
                ("Quarterly", "2023-11-30", "month", 3), ("Visa", "2024-09-15", "one_time", 1),
            ] {
                _ = try await service.create(
                    contactID: ada.id,
                    ReminderDraft(
                        title: title, description: title == "Rent" ? "Pay, then file; done" : nil,
                        initialDate: date, frequencyType: type, frequencyNumber: number))
            }
            let located = try await app.send(.GET, "/api/reminders/feed", headers: account.bearer)
            XCTAssertEqual(located.status, .ok, "\(database)")
            let url = try located.decoded(DataEnvelope<ReminderFeedResource>.self).data.url
            let path = try XCTUnwrap(URLComponents(string: url)?.path)
            XCTAssertTrue(path.hasPrefix("/feeds/") && path.hasSuffix("/reminders.ics"), path)
            let again = try await app.send(.GET, "/api/reminders/feed", headers: account.bearer)
            XCTAssertEqual(try again.decoded(DataEnvelope<ReminderFeedResource>.self).data.url, url, "kept")

            let feed = try await app.send(.GET, path)
            XCTAssertEqual(feed.status, .ok)
            XCTAssertEqual(feed.headers.first(name: .contentType), "text/calendar; charset=utf-8")
            let etag = try XCTUnwrap(feed.headers.first(name: .eTag))
            let cached = try await app.send(.GET, path, headers: ["If-None-Match": etag])
            XCTAssertEqual(cached.status, .notModified)
            XCTAssertTrue(feed.text.contains("URL:http://127.0.0.1:8080/contacts/\(ada.id)\r\n"), feed.text)
            XCTAssertTrue(feed.text.contains("TRIGGER;RELATED=START:PT9H\r\n"))
            XCTAssertTrue(feed.text.contains(#"DESCRIPTION:Pay\, then file\; done"#))

            let (events, issues) = ICalendar.read(feed.text)
            XCTAssertEqual(issues, [])
            XCTAssertEqual(events.count, 5)
            XCTAssertTrue(events.allSatisfy { $0.title.hasPrefix("Ada Lovelace: ") })
            XCTAssertTrue(events.allSatisfy { $0.alarmMinutesAfterMidnight == 540 })
            // Two years of the feed, expanded from its RRULEs, are the API's occurrences month by month.
            let list = try await app.send(.GET, "/api/reminders?limit=100", headers: account.bearer)
            let idByUID = Dictionary(
                uniqueKeysWithValues: try list.decoded(PageResource<ReminderResource>.self).data.map {
                    ("\($0.uuid)@locify", $0.id)
                })
            let today = try XCTUnwrap(CalendarDate(iso8601: "2024-05-04"))
            let end = try XCTUnwrap(today.month(offsetBy: 23)?.upperBound)
            var fromFeed: [String] = []
            let lines = feed.text.components(separatedBy: "\r\n")
            for event in events {
                let block = lines.drop { $0 != "UID:\(event.uid)" }.prefix { $0 != "END:VEVENT" }
                let rule = block.first { $0.hasPrefix("RRULE:") }.map { String($0.dropFirst(6)) }
                let id = try XCTUnwrap(idByUID[event.uid])
                fromFeed += expand(start: event.schedule.initialDate, rule: rule, through: end)
                    .filter { $0 >= today }.map { "\($0) \(id)" }
            }
            var fromAPI: [String] = []
            for month in 0..<24 {
                let upcoming = try await app.send(.GET, "/api/reminders/upcoming/\(month)", headers: account.bearer)
                fromAPI += try upcoming.decoded(DataEnvelope<[UpcomingReminderResource]>.self).data.map {
                    "\($0.plannedDate.prefix(10)) \($0.reminderID)"
                }
            }
            XCTAssertEqual(fromFeed.sorted(), fromAPI.sorted())
            XCTAssertTrue(fromAPI.contains("2025-02-28 \(idByUID.values.sorted()[1])"), "Feb 29 in a common year")

            let wrong = try await app.send(.GET, "/feeds/not-the-secret/reminders.ics")
            XCTAssertEqual(wrong.status, .notFound)
        }
    }

    func testSettingsOffersEveryReminderAsOneCalendarFileAndTheOtherDownloads() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            let contactPath = try await browser.registerWithContact(firstName: "Ada", lastName: "Lovelace")
            let settings = try await browser.get("/settings")
            for link in [
                #"href="/settings/export" download"#, #"href="/settings/export/reminders.ics" download"#,
                #"href="/settings/places/export?format=geojson" download"#,
            ] {
                XCTAssertTrue(settings.text.contains(link), "\(database): \(link)")
            }
            let places = try await browser.get("/settings/places/export?format=geojson")
            XCTAssertEqual(places.status, .ok)
            XCTAssertTrue(places.text.contains(#""FeatureCollection""#), places.text)
            let empty = try await browser.get("/settings/export/reminders.ics")
            XCTAssertEqual(empty.status, .ok)
            XCTAssertFalse(empty.text.contains("BEGIN:VEVENT"), "no reminders yet")
            let page = try await browser.get("/settings/notifications")
            let feedURL = try XCTUnwrap(
                page.text.components(separatedBy: #"id="feed-url" type="text" value=""#)
                    .dropFirst().first?.components(separatedBy: "\"").first)
            let feedPath = try XCTUnwrap(URLComponents(string: feedURL)?.path)
            let contactID = try XCTUnwrap(contactPath.split(separator: "/").last.flatMap { Int($0) })
            let users = try await app.db.plainRows(#"SELECT "id" FROM "users""#, columns: ["id"])
            let ownerID = try XCTUnwrap(try users.first?.requiredInteger(0))
            _ = try await ReminderService(database: app.db, ownerID: ownerID, dependencies: app.dependencies).create(
                contactID: contactID, ReminderDraft(title: "Call", initialDate: "2024-05-05", frequencyType: "year"))

            let download = try await browser.get("/settings/export/reminders.ics")
            XCTAssertEqual(download.status, .ok)
            XCTAssertEqual(download.headers.first(name: .contentType), "text/calendar; charset=utf-8")
            XCTAssertEqual(
                download.headers.first(name: .contentDisposition), #"attachment; filename="locify-reminders.ics""#)
            XCTAssertTrue(download.text.contains("SUMMARY:Ada Lovelace: Call"), download.text)
            let feed = try await app.send(.GET, feedPath)
            XCTAssertEqual(download.text, feed.text, "the download is the feed")
            let signedOut = try await app.send(.GET, "/settings/export/reminders.ics")
            XCTAssertEqual(signedOut.status, .seeOther, "only for the signed-in person")
        }
    }

    func testANewAddressFromSettingsRetiresTheOldOne() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let page = try await browser.get("/settings/notifications")
            let oldURL = try XCTUnwrap(
                page.text.components(separatedBy: #"id="feed-url" type="text" value=""#)
                    .dropFirst().first?.components(separatedBy: "\"").first)
            let oldPath = try XCTUnwrap(URLComponents(string: oldURL)?.path)
            let before = try await app.send(.GET, oldPath)
            XCTAssertEqual(before.status, .ok)
            XCTAssertTrue(before.text.hasPrefix("BEGIN:VCALENDAR\r\n"))
            let regenerated = try await browser.post("/settings/feed", form: [:])
            XCTAssertEqual(regenerated.status, .seeOther)
            let after = try await app.send(.GET, oldPath)
            XCTAssertEqual(after.status, .notFound)
            let shown = try await browser.get("/settings/notifications")
            XCTAssertTrue(shown.text.contains("The calendar feed has a new address"))
            XCTAssertFalse(shown.text.contains(oldURL))
        }
    }
}
