import XCTest

@testable import LocifyCore

final class ICalendarTests: XCTestCase {
    /// A small RFC 5545 expander for the rules Locify writes, written from the RFC's semantics
    /// (invalid dates are skipped; BYSETPOS=-1 takes the last candidate of each period).
    func expand(start: CalendarDate, rule: String?, through end: CalendarDate) -> [CalendarDate] {
        guard let rule else { return [start] }
        var parts: [String: String] = [:]
        for pair in rule.split(separator: ";") {
            let kv = pair.split(separator: "=").map(String.init)
            parts[kv[0]] = kv[1]
        }
        let interval = Int(parts["INTERVAL"] ?? "1")!
        let monthDays = parts["BYMONTHDAY"].map { $0.split(separator: ",").map { Int($0)! } }
        var result: [CalendarDate] = []
        var period = 0
        while true {
            var candidates: [CalendarDate] = []
            switch parts["FREQ"]! {
            case "WEEKLY":
                candidates = [start.adding(days: 7 * interval * period)!]
            case "MONTHLY", "YEARLY":
                let step = parts["FREQ"] == "MONTHLY" ? interval : 12 * interval
                let index = start.year * 12 + start.month - 1 + step * period
                let (year, month) = (index / 12, index % 12 + 1)
                let days = monthDays ?? [start.day]
                candidates = days.compactMap { CalendarDate(year: year, month: month, day: $0) }
                if parts["BYSETPOS"] == "-1" { candidates = candidates.suffix(1) }
            default:
                XCTFail("unexpected rule \(rule)")
                return []
            }
            guard let first = candidates.first else {
                period += 1
                continue
            }
            if first > end { break }
            result += candidates.filter { $0 >= start }
            period += 1
        }
        return result
    }

    func testRulesReproduceTheRecurrenceEngine() {
        let end = CalendarDate(year: 2031, month: 12, day: 31)!
        var starts: [CalendarDate] = []
        for day in [1, 15, 28, 29, 30, 31] { starts.append(CalendarDate(year: 2024, month: 1, day: day)!) }
        starts += [
            CalendarDate(year: 2024, month: 2, day: 29)!, CalendarDate(year: 2023, month: 8, day: 31)!,
            CalendarDate(year: 2025, month: 3, day: 30)!,
        ]
        for start in starts {
            for recurrence in [Recurrence.once, .weeks(1), .weeks(2), .months(1), .months(3), .years(1), .years(2)] {
                let schedule = ReminderSchedule(initialDate: start, recurrence: recurrence)
                let rule = ICalendar.recurrenceRule(for: schedule)
                XCTAssertEqual(
                    expand(start: start, rule: rule, through: end), schedule.occurrences(in: start...end),
                    "\(start) \(recurrence): \(rule ?? "none")")
            }
        }
        XCTAssertEqual(
            ICalendar.recurrenceRule(
                for: ReminderSchedule(initialDate: CalendarDate(year: 2024, month: 1, day: 31)!, recurrence: .months(1))
            ),
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")
        XCTAssertEqual(
            ICalendar.recurrenceRule(
                for: ReminderSchedule(initialDate: CalendarDate(year: 2024, month: 2, day: 29)!, recurrence: .years(1))),
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")
    }

    func testTheFeedIsWellFormedAndRoundTrips() {
        let events = [
            CalendarEvent(
                uid: "reminder-1@locify",
                title: "Call Zoë; bring the book, the one with a very long title that needs folding across lines",
                description: "Line one\nLine two, with comma",
                schedule: ReminderSchedule(
                    initialDate: CalendarDate(year: 2024, month: 1, day: 31)!, recurrence: .months(1))),
            CalendarEvent(
                uid: "reminder-2@locify", title: "Birthday",
                schedule: ReminderSchedule(
                    initialDate: CalendarDate(year: 1992, month: 2, day: 29)!, recurrence: .years(1)),
                alarmMinutesAfterMidnight: 570),
            CalendarEvent(
                uid: "reminder-3@locify", title: "Once",
                schedule: ReminderSchedule(initialDate: CalendarDate(year: 2025, month: 6, day: 1)!, recurrence: .once),
                alarmMinutesAfterMidnight: nil),
        ]
        let text = ICalendar.write(
            events, calendarName: "Ada's reminders", stamp: Date(timeIntervalSince1970: 1_714_817_165))
        XCTAssertTrue(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        XCTAssertTrue(text.hasSuffix("END:VCALENDAR\r\n"))
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF only")
        for line in text.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, line) }
        XCTAssertTrue(text.contains("DTSTART;VALUE=DATE:20240131\r\nDTEND;VALUE=DATE:20240201\r\n"))
        XCTAssertTrue(text.contains("DTSTAMP:20240504T100605Z"))
        XCTAssertTrue(text.contains("DESCRIPTION:Line one\\nLine two\\, with comma"))
        XCTAssertTrue(text.contains("TRIGGER;RELATED=START:PT9H30M"))
        XCTAssertEqual(text.components(separatedBy: "BEGIN:VALARM").count - 1, 2)

        let (read, issues) = ICalendar.read(text)
        XCTAssertEqual(issues, [])
        XCTAssertEqual(read, events)
    }

    func testUnsupportedEventsAreReported() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            SUMMARY:Every Monday and Friday
            DTSTART;VALUE=DATE:20240101
            RRULE:FREQ=WEEKLY;BYDAY=MO,FR
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:No date
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Plain
            DTSTART:20240301T090000Z
            RRULE:FREQ=YEARLY
            END:VEVENT
            END:VCALENDAR
            """
        let (events, issues) = ICalendar.read(text)
        XCTAssertEqual(events.map(\.title), ["Plain"])
        XCTAssertEqual(events.first?.schedule.recurrence, .years(1))
        XCTAssertEqual(issues.map(\.record), [1, 2])
        XCTAssertTrue(issues[0].reason.contains("BYDAY"))
        XCTAssertEqual(issues[1].reason, "no DTSTART date")
    }

    func testFoldingNeverSplitsACharacter() {
        let folded = ContentLines.fold("SUMMARY:" + String(repeating: "é", count: 80))
        for line in folded.components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(line.utf8.count, 75)
        }
        XCTAssertEqual(ContentLines.parse(folded).first?.value, String(repeating: "é", count: 80))
        XCTAssertEqual(ContentLines.unescape(ContentLines.escape("a;b,c\\d\ne")), "a;b,c\\d\ne")
        XCTAssertEqual(
            ContentLines.parseLine(#"item1.ADR;TYPE=home;LABEL="1 Main St:\nTown":;;1 Main St"#)?.parameter("label"),
            #"1 Main St:\nTown"#)
    }
}
