import XCTest

@testable import LocifyCore

/// CalDAV's calendar objects: a to-do written with what its client wrote kept, read back; RFC 4791 9.9's
/// time-range rules for to-dos; and a repeating event expanded into instances.
final class CalendarObjectTests: XCTestCase {
    private func instant(_ text: String) -> Date {
        ICalendar.parseTimestamp(text) ?? .distantPast
    }

    func testAToDoKeepsWhatItsClientWroteThatLocifyDoesNotModel() throws {
        let original =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTIMEZONE", "TZID:Europe/London",
                "BEGIN:STANDARD", "DTSTART:19701025T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "END:STANDARD",
                "END:VTIMEZONE", "BEGIN:VTODO", "UID:phone-1", "SUMMARY:Old title", "STATUS:NEEDS-ACTION",
                "DUE;TZID=Europe/London:20241005T170000", "PRIORITY:1", "BEGIN:VALARM", "ACTION:DISPLAY",
                "TRIGGER:-PT15M", "END:VALARM", "END:VTODO", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let task = CalendarTask(
            uid: "phone-1", title: "New title", isCompleted: true, completedAt: instant("20241002T100000Z"))
        let written = ICalendar.object(task, stamp: instant("20241002T100000Z"), keepingFrom: original)
        let lines = ContentLines.unfold(written)
        XCTAssertEqual(lines.filter { $0.hasPrefix("SUMMARY") }, ["SUMMARY:New title"])
        XCTAssertEqual(lines.filter { $0.hasPrefix("STATUS") }, ["STATUS:COMPLETED"])
        for kept in ["DUE;TZID=Europe/London:20241005T170000", "PRIORITY:1", "TRIGGER:-PT15M", "TZID:Europe/London"] {
            XCTAssertTrue(lines.contains(kept), "\(kept) in \(written)")
        }
        // The time zone stays outside the to-do, the alarm inside it.
        let todo = try XCTUnwrap(lines.firstIndex(of: "BEGIN:VTODO"))
        XCTAssertLessThan(try XCTUnwrap(lines.firstIndex(of: "END:VTIMEZONE")), todo)
        XCTAssertGreaterThan(try XCTUnwrap(lines.firstIndex(of: "BEGIN:VALARM")), todo)

        let read = try ICalendar.readTask(written).get()
        XCTAssertEqual(read.uid, "phone-1")
        XCTAssertEqual(read.title, "New title")
        XCTAssertTrue(read.isCompleted)
        XCTAssertEqual(read.completedAt, instant("20241002T100000Z"))
    }

    func testAToDoIsPlacedInTimeAsRFC4791Says() {
        func todo(_ lines: String...) -> CalendarObjectOutline {
            CalendarObjectOutline(
                text: (["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:x"] + lines + ["END:VTODO", "END:VCALENDAR"])
                    .joined(separator: "\r\n"))
        }
        func range(_ start: String, _ end: String) -> DAVTimeRange {
            DAVTimeRange(start: instant(start), end: instant(end))
        }
        let october = range("20241001T000000Z", "20241101T000000Z")
        let november = range("20241101T000000Z", "20241201T000000Z")
        // Due only: the range must hold the due time.
        XCTAssertTrue(todo("DUE:20241015T120000Z").overlaps(october))
        XCTAssertFalse(todo("DUE:20241015T120000Z").overlaps(november))
        // Created and completed: between them.
        let spanning = todo("CREATED:20241020T000000Z", "COMPLETED:20241105T000000Z")
        XCTAssertTrue(spanning.overlaps(october) && spanning.overlaps(november))
        // Created only: any range ending after it.
        XCTAssertFalse(todo("CREATED:20241105T000000Z").overlaps(october))
        XCTAssertTrue(todo("CREATED:20241005T000000Z").overlaps(november))
        // No dates at all: every range.
        XCTAssertTrue(todo().overlaps(october))
    }

    func testARepeatingEventExpandsIntoItsInstancesInARange() {
        let event = CalendarEvent(
            uid: "leap@locify", title: "Leap day",
            schedule: ReminderSchedule(
                initialDate: CalendarDate(year: 2024, month: 2, day: 29) ?? CalendarDate(Date(), in: .gmt),
                recurrence: .years(1)))
        let text = ICalendar.object(event, stamp: instant("20240101T000000Z"))
        let outline = CalendarObjectOutline(text: text)
        // A common year's instance is on the 28th of February.
        XCTAssertTrue(
            outline.overlaps(DAVTimeRange(start: instant("20250228T000000Z"), end: instant("20250301T000000Z"))))
        XCTAssertFalse(
            outline.overlaps(DAVTimeRange(start: instant("20250301T000000Z"), end: instant("20260201T000000Z"))))
        let expanded = ICalendar.expanded(
            text, in: DAVTimeRange(start: instant("20250101T000000Z"), end: instant("20270101T000000Z")))
        let lines = ContentLines.unfold(expanded)
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("RECURRENCE-ID") },
            ["RECURRENCE-ID;VALUE=DATE:20250228", "RECURRENCE-ID;VALUE=DATE:20260228"])
        XCTAssertFalse(lines.contains { $0.hasPrefix("RRULE") })
        XCTAssertEqual(lines.filter { $0 == "BEGIN:VALARM" }.count, 2, "each instance keeps its alarm")
        // Only the components and properties asked for.
        let asked = DAVCalendarDataRequest(
            component: .init(
                name: "VCALENDAR", properties: [],
                components: [.init(name: "VEVENT", properties: ["UID"], components: [])]
            ))
        XCTAssertEqual(
            ContentLines.unfold(asked.selected(from: text)),
            ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:leap@locify", "END:VEVENT", "END:VCALENDAR"])
    }
}
