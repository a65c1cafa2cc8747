import Foundation
import XCTest

@testable import LocifyCore

final class NotificationScheduleTests: XCTestCase {
    private func zone(_ identifier: String) throws -> TimeZone {
        try XCTUnwrap(TimeZone(identifier: identifier))
    }

    private func date(_ text: String) throws -> CalendarDate {
        try XCTUnwrap(CalendarDate(iso8601: text))
    }

    private func instant(_ text: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: text))
    }

    func testTheMomentOfADayIsItsLocalTimeEvenAcrossClockChanges() throws {
        let berlin = try zone("Europe/Berlin")
        XCTAssertEqual(
            NotificationSchedule.moment(of: try date("2024-05-04"), minutes: 540, in: berlin),
            try instant("2024-05-04T07:00:00Z"))
        // 02:30 does not exist on 31 March 2024 in Berlin: it moves forward by the hour the clocks skip.
        XCTAssertEqual(
            NotificationSchedule.moment(of: try date("2024-03-31"), minutes: 150, in: berlin),
            try instant("2024-03-31T01:30:00Z"))
        // 02:30 happens twice on 27 October 2024: the first one counts.
        XCTAssertEqual(
            NotificationSchedule.moment(of: try date("2024-10-27"), minutes: 150, in: berlin),
            try instant("2024-10-27T00:30:00Z"))
        XCTAssertEqual(
            NotificationSchedule.moment(of: try date("2024-05-05"), minutes: 540, in: try zone("Pacific/Kiritimati")),
            try instant("2024-05-04T19:00:00Z"))
        XCTAssertEqual(
            NotificationSchedule.moment(of: try date("2024-05-05"), minutes: 540, in: try zone("Etc/GMT+12")),
            try instant("2024-05-05T21:00:00Z"))
    }

    func testSteppingThroughAClockChangeGivesEveryDayExactlyOnce() throws {
        let berlin = try zone("Europe/Berlin")
        // At 00:00 Berlin time the first day after the start is the next one: its midnight is 23:00 UTC.
        let cases = [
            ("2024-03-28T00:00:00Z", 150, "2024-03-28"), ("2024-10-24T00:00:00Z", 150, "2024-10-24"),
            ("2024-03-28T00:00:00Z", 0, "2024-03-29"), ("2024-10-24T00:00:00Z", 0, "2024-10-25"),
        ]
        for (start, minutes, firstDay) in cases {
            var clock = try instant(start)
            var seen: [CalendarDate] = []
            for _ in 0..<(24 * 7 * 4) {
                let next = clock.addingTimeInterval(15 * 60)
                seen += NotificationSchedule.days(after: clock, through: next, minutes: minutes, in: berlin).map(\.day)
                clock = next
            }
            let first = try date(firstDay)
            let expected = (0..<7).compactMap { first.adding(days: $0) }
            XCTAssertEqual(seen, expected, "\(start) at minute \(minutes): each day once, in order")
        }
    }

    func testADownServerCatchesUpAMonthAtMost() throws {
        let days = NotificationSchedule.days(
            after: try instant("2024-01-01T00:00:00Z"), through: try instant("2024-05-04T10:00:00Z"), minutes: 540,
            in: .gmt)
        XCTAssertEqual(days.count, NotificationSchedule.catchUpDays)
        XCTAssertEqual(days.last?.day, try date("2024-05-04"))
    }

    private func reminder(_ id: Int, _ start: String, _ recurrence: Recurrence, done: Bool = false) throws -> Reminder {
        Reminder(
            id: id, uuid: UUID(), ownerID: 1, contactID: 1,
            fields: ReminderFields(
                title: "R\(id)", description: nil,
                schedule: ReminderSchedule(initialDate: try date(start), recurrence: recurrence)),
            isDelible: true, doneAt: done ? Date() : nil, createdAt: Date(), updatedAt: Date())
    }

    func testNoticesComeOnTheDayAndOnEachAdvanceDay() throws {
        let reminders = [
            try reminder(1, "2024-01-03", .months(1)),  // on 3 June, in 30 days
            try reminder(2, "2024-05-07", .once),  // in 3 days
            try reminder(3, "2024-05-04", .once, done: true),  // done: never told
            try reminder(4, "2023-05-04", .years(1)),  // today
        ]
        let preferences = NotificationPreferences(advanceDays: [3, 30])
        let notices = NotificationSchedule.notices(
            of: reminders.map(\.outline), after: try instant("2024-05-04T08:00:00Z"),
            through: try instant("2024-05-04T09:00:00Z"),
            preferences: preferences, timeZone: .gmt)
        XCTAssertEqual(
            notices.map { "\($0.reminderID) \($0.occurrence) \($0.daysBefore)" },
            ["1 2024-06-03 30", "2 2024-05-07 3", "4 2024-05-04 0"])
        XCTAssertEqual(Set(notices.map(\.dueAt)), [try instant("2024-05-04T09:00:00Z")])
        XCTAssertEqual(notices[0].dedupeKey(on: .webhook), "notify:1:2024-06-03:30:webhook")
        XCTAssertTrue(NotificationSchedule.isCurrent(try date("2024-06-03"), of: reminders[0]))
        XCTAssertFalse(NotificationSchedule.isCurrent(try date("2024-06-04"), of: reminders[0]))
        XCTAssertFalse(NotificationSchedule.isCurrent(try date("2024-05-04"), of: reminders[2]), "done")
    }

    func testEveryProblemWithPreferencesIsReportedAtOnce() throws {
        let draft = NotificationPreferencesDraft(
            timeOfDay: "25:00", advanceDays: ["2"], inApp: true, email: true, webhookURL: "ftp://example.org/hook",
            weekStartsOn: "8")
        XCTAssertThrowsError(try draft.validated(emailAvailable: false)) { error in
            let failure = error as? ValidationFailure
            XCTAssertEqual(
                failure?.errors.map(\.field), ["time_of_day", "advance_days", "email", "webhook_url", "week_starts_on"])
        }
        for (url, preset) in [("https://ntfy.sh/", "ntfy"), ("https://gotify.example/message", "gotify")] {
            XCTAssertThrowsError(
                try NotificationPreferencesDraft(webhookURL: url, webhookPreset: preset).validated(
                    emailAvailable: true),
                "\(preset) needs its topic or token")
        }
        XCTAssertThrowsError(
            try NotificationPreferencesDraft(webhookURL: "https://x.example", webhookPreset: "slack").validated(
                emailAvailable: true))
        XCTAssertEqual(
            try NotificationPreferencesDraft(webhookURL: "https://example.org/ntfy/ada", webhookPreset: "ntfy")
                .validated(emailAvailable: true).webhook?.url, "https://example.org/ntfy/ada",
            "an ntfy behind a proxy, under a path")

        let saved = try NotificationPreferencesDraft(
            timeOfDay: "07:45:00", advanceDays: ["7", "1", "7"], inApp: false, email: true,
            webhookURL: " https://ntfy.sh/locify-ada ", webhookPreset: "ntfy", weekStartsOn: "1"
        ).validated(emailAvailable: true)
        XCTAssertEqual(
            saved,
            NotificationPreferences(
                minutesAfterMidnight: 465, advanceDays: [1, 7], inApp: false, email: true,
                webhook: WebhookTarget(url: "https://ntfy.sh/locify-ada", preset: .ntfy), weekStartsOn: 1))
        XCTAssertEqual(saved.timeOfDay, "07:45")
        XCTAssertEqual(saved.channels, [.email, .webhook])
        XCTAssertEqual(
            try NotificationPreferencesDraft().validated(emailAvailable: false),
            NotificationPreferences(inApp: false), "an empty form: 09:00, Monday, no channel ticked")
    }

    func testTheWordsNameTheContactTheTitleAndWhen() throws {
        let today = NoticeText(
            reminderTitle: "Call", contactName: "Ada Lovelace", occurrence: try date("2024-05-04"), daysBefore: 0,
            timeZone: .gmt)
        XCTAssertEqual(today.title, "Ada Lovelace: Call")
        XCTAssertEqual(today.body, "Today, Saturday 4 May 2024.")
        let ahead = NoticeText(
            reminderTitle: "Call", contactName: "Ada", occurrence: try date("2024-05-11"), daysBefore: 7,
            lateSince: try instant("2024-05-04T09:00:00Z"), timeZone: .gmt)
        XCTAssertEqual(
            ahead.body,
            "On Saturday 11 May 2024. Sent late: it was due on Saturday 4 May 2024, while the server was not running."
        )
    }

    func testWebhookPayloadsInEachPresetsShape() throws {
        let notice = OutgoingNotice(
            text: NoticeText(
                reminderTitle: "Call", contactName: "Ada", occurrence: try date("2024-05-04"), daysBefore: 0,
                timeZone: .gmt),
            reminderID: 3, contactID: 9, contactName: "Ada", occurrence: try date("2024-05-04"), daysBefore: 0,
            isLate: false, link: "https://locify.example/contacts/9")
        func object(_ data: Data) throws -> [String: Any] {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let plain = WebhookPayload.request(
            for: WebhookTarget(url: "https://hooks.example/in", preset: .json), notice: notice)
        XCTAssertEqual(plain.url, "https://hooks.example/in")
        let json = try object(plain.body)
        XCTAssertEqual(json["title"] as? String, "Ada: Call")
        XCTAssertEqual(json["date"] as? String, "2024-05-04")
        XCTAssertEqual(json["link"] as? String, "https://locify.example/contacts/9")
        XCTAssertEqual((json["contact"] as? [String: Any])?["id"] as? Int, 9)
        XCTAssertEqual(json["reminder_id"] as? Int, 3)

        let ntfy = WebhookPayload.request(
            for: WebhookTarget(url: "https://ntfy.example:8443/ada-topic", preset: .ntfy), notice: notice)
        XCTAssertEqual(ntfy.url, "https://ntfy.example:8443/")
        let ntfyJSON = try object(ntfy.body)
        XCTAssertEqual(ntfyJSON["topic"] as? String, "ada-topic")
        let proxied = WebhookPayload.request(
            for: WebhookTarget(url: "https://example.org/tools/ntfy/ada-topic?x=1", preset: .ntfy), notice: notice)
        XCTAssertEqual(proxied.url, "https://example.org/tools/ntfy/", "an ntfy served under a path")
        XCTAssertEqual(try object(proxied.body)["topic"] as? String, "ada-topic")
        XCTAssertEqual(ntfyJSON["click"] as? String, "https://locify.example/contacts/9")
        XCTAssertEqual(ntfyJSON["message"] as? String, "Today, Saturday 4 May 2024.")

        let gotify = WebhookPayload.request(
            for: WebhookTarget(url: "https://gotify.example/message?token=abc", preset: .gotify), notice: notice)
        XCTAssertEqual(gotify.url, "https://gotify.example/message?token=abc")
        let gotifyJSON = try object(gotify.body)
        XCTAssertEqual(gotifyJSON["title"] as? String, "Ada: Call")
        XCTAssertEqual(gotifyJSON["priority"] as? Int, 5)
    }
}
