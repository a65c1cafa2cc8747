import Foundation
import XCTest

@testable import LocifyCore

final class RecurrenceTests: XCTestCase {
    /// The reference: Foundation's calendar also clamps to the month's end when adding months.
    func reference(_ start: CalendarDate, unit: Calendar.Component, amount: Int) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day))!
        return CalendarDate(calendar.date(byAdding: unit, value: amount, to: date)!, in: .gmt)
    }

    func testOccurrencesMatchTheReferenceAcross30Years() {
        let starts = [
            (2000, 1, 31), (2000, 2, 29), (2001, 3, 31), (2003, 8, 30), (2004, 12, 31), (2010, 6, 15), (1996, 2, 28),
        ]
        .map { CalendarDate(year: $0.0, month: $0.1, day: $0.2)! }
        for start in starts {
            for n in [1, 2, 3, 5] {
                let monthly = ReminderSchedule(initialDate: start, recurrence: .months(n))
                for k in 0..<(360 / n) {
                    XCTAssertEqual(
                        monthly.occurrence(k), reference(start, unit: .month, amount: k * n),
                        "\(start) every \(n) months #\(k)")
                }
                let yearly = ReminderSchedule(initialDate: start, recurrence: .years(n))
                for k in 0..<(30 / n) {
                    XCTAssertEqual(
                        yearly.occurrence(k), reference(start, unit: .year, amount: k * n),
                        "\(start) every \(n) years #\(k)")
                }
                let weekly = ReminderSchedule(initialDate: start, recurrence: .weeks(n))
                for k in stride(from: 0, to: 1560 / n, by: 7) {
                    XCTAssertEqual(
                        weekly.occurrence(k), reference(start, unit: .day, amount: 7 * k * n),
                        "\(start) every \(n) weeks #\(k)")
                }
            }
        }
    }

    func testMonthEndsDoNotDrift() {
        let jan31 = ReminderSchedule(initialDate: CalendarDate(year: 2023, month: 1, day: 31)!, recurrence: .months(1))
        XCTAssertEqual(
            (0...4).compactMap { jan31.occurrence($0)?.description },
            ["2023-01-31", "2023-02-28", "2023-03-31", "2023-04-30", "2023-05-31"])
        let leap = ReminderSchedule(initialDate: CalendarDate(year: 2024, month: 2, day: 29)!, recurrence: .years(1))
        XCTAssertEqual(
            (0...4).compactMap { leap.occurrence($0)?.description },
            ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"])
        let once = ReminderSchedule(initialDate: CalendarDate(year: 2024, month: 2, day: 29)!, recurrence: .once)
        XCTAssertNil(once.occurrence(1))
    }

    func testNextOccurrenceAgreesWithBruteForce() {
        let starts = [
            CalendarDate(year: 2019, month: 1, day: 31)!, CalendarDate(year: 2020, month: 2, day: 29)!,
            CalendarDate(year: 2021, month: 7, day: 4)!,
        ]
        let recurrences: [Recurrence] = [.weeks(1), .weeks(3), .months(1), .months(7), .years(1), .years(4)]
        for start in starts {
            for recurrence in recurrences {
                let schedule = ReminderSchedule(initialDate: start, recurrence: recurrence)
                let all = (0..<400).compactMap(schedule.occurrence)
                var day = start.adding(days: -3)!
                while day < CalendarDate(year: 2026, month: 1, day: 1)! {
                    XCTAssertEqual(
                        schedule.nextOccurrence(onOrAfter: day), all.first { $0 >= day },
                        "\(start) \(recurrence) from \(day)")
                    day = day.adding(days: 5)!
                }
            }
        }
        let once = ReminderSchedule(initialDate: CalendarDate(year: 2024, month: 5, day: 4)!, recurrence: .once)
        XCTAssertEqual(once.nextOccurrence(onOrAfter: CalendarDate(year: 2024, month: 5, day: 4)!), once.initialDate)
        XCTAssertNil(once.nextOccurrence(onOrAfter: CalendarDate(year: 2024, month: 5, day: 5)!))
    }

    func testOccurrencesInARange() {
        let schedule = ReminderSchedule(
            initialDate: CalendarDate(year: 2023, month: 1, day: 31)!, recurrence: .months(1))
        let range = CalendarDate(year: 2024, month: 1, day: 1)!...CalendarDate(year: 2024, month: 4, day: 30)!
        XCTAssertEqual(
            schedule.occurrences(in: range).map(\.description),
            ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"])
        XCTAssertEqual(
            ReminderSchedule(initialDate: range.lowerBound, recurrence: .once).occurrences(in: range).count, 1)
    }

    func testMonicaFrequencyFields() {
        XCTAssertEqual(Recurrence(frequencyType: "month", frequencyNumber: 2), .months(2))
        XCTAssertEqual(Recurrence(frequencyType: "one_time", frequencyNumber: 0), .once)
        XCTAssertNil(Recurrence(frequencyType: "week", frequencyNumber: 0))
        XCTAssertNil(Recurrence(frequencyType: "fortnight", frequencyNumber: 1))
        XCTAssertEqual(Recurrence.years(3).frequencyType, "year")
    }

    func testDayArithmetic() {
        var day = CalendarDate(year: 1899, month: 12, day: 25)!
        var calendarDay = day
        for _ in 0..<(366 * 130) {
            day = day.adding(days: 1)!
            calendarDay = reference(calendarDay, unit: .day, amount: 1)
            if day != calendarDay {
                XCTFail("\(day) != \(calendarDay)")
                break
            }
        }
        XCTAssertEqual(CalendarDate(year: 2024, month: 5, day: 4)!.weekday, 7, "a Saturday")
        XCTAssertEqual(CalendarDate(year: 2000, month: 1, day: 2)!.weekday, 1, "a Sunday")
    }
}

final class TimelineTests: XCTestCase {
    struct Reminder {
        let title: String
        let schedule: ReminderSchedule
        var done = false
    }

    func make(_ title: String, _ y: Int, _ m: Int, _ d: Int, _ recurrence: Recurrence = .once, done: Bool = false)
        -> Reminder
    {
        Reminder(
            title: title,
            schedule: ReminderSchedule(initialDate: CalendarDate(year: y, month: m, day: d)!, recurrence: recurrence),
            done: done)
    }

    func titles(_ entries: [Timeline<Reminder>.Entry]) -> [String] { entries.map(\.item.title) }

    func testGroupsAroundAMidMonthWeek() {
        // Wednesday 2024-05-15; weeks start on Monday: this week ends Sunday the 19th.
        let today = CalendarDate(year: 2024, month: 5, day: 15)!
        let reminders = [
            make("missed call", 2024, 5, 10), make("done long ago", 2024, 1, 1, done: true),
            make("today", 2024, 5, 15), make("sunday", 2024, 5, 19), make("monday", 2024, 5, 20),
            make("month end", 2024, 5, 31), make("june", 2024, 6, 1), make("birthday", 1990, 5, 16, .years(1)),
            make("done early, due today", 2024, 5, 15, done: true),
            make("done early, due later", 2024, 6, 9, done: true),
            make("monthly from jan 31", 2024, 1, 31, .months(1)),
        ]
        let timeline = Timeline(reminders, today: today, weekStartsOn: 2, schedule: \.schedule, isDone: \.done)
        XCTAssertEqual(titles(timeline.overdue), ["missed call"])
        XCTAssertEqual(titles(timeline.today), ["today"])
        XCTAssertEqual(titles(timeline.thisWeek), ["birthday", "sunday"])
        XCTAssertEqual(timeline.thisWeek.first?.date, CalendarDate(year: 2024, month: 5, day: 16))
        XCTAssertEqual(titles(timeline.thisMonth), ["monday", "month end", "monthly from jan 31"])
        XCTAssertEqual(titles(timeline.later), ["june"])
    }

    func testAWeekThatCrossesIntoNextMonth() {
        // Thursday 2024-02-29; a Sunday-start week ends Saturday March 2nd.
        let today = CalendarDate(year: 2024, month: 2, day: 29)!
        let reminders = [make("friday", 2024, 3, 1), make("saturday", 2024, 3, 2), make("next sunday", 2024, 3, 3)]
        let timeline = Timeline(reminders, today: today, weekStartsOn: 1, schedule: \.schedule)
        XCTAssertEqual(titles(timeline.thisWeek), ["friday", "saturday"])
        XCTAssertTrue(timeline.thisMonth.isEmpty)
        XCTAssertEqual(titles(timeline.later), ["next sunday"])
    }

    func testTheLastDayOfAWeek() {
        // Sunday 2024-03-31 with Monday-start weeks: the week ends today; tomorrow is next month.
        let today = CalendarDate(year: 2024, month: 3, day: 31)!
        let timeline = Timeline(
            [make("tomorrow", 2024, 4, 1), make("now", 2024, 3, 31)], today: today, weekStartsOn: 2,
            schedule: \.schedule)
        XCTAssertEqual(titles(timeline.today), ["now"])
        XCTAssertTrue(timeline.thisWeek.isEmpty)
        XCTAssertEqual(titles(timeline.later), ["tomorrow"])
    }
}
