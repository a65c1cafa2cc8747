import Foundation

/// A reminder as an all-day calendar event.
public struct CalendarEvent: Equatable, Sendable {
    public var uid: String
    public var title: String
    public var description: String?
    public var schedule: ReminderSchedule
    /// Minutes after the start of the day to alert (540 = 09:00); nil for no alarm.
    public var alarmMinutesAfterMidnight: Int?
    /// Where to read more (the contact's page).
    public var url: String?

    public init(
        uid: String, title: String, description: String? = nil, schedule: ReminderSchedule,
        alarmMinutesAfterMidnight: Int? = 540, url: String? = nil
    ) {
        self.url = url
        self.uid = uid
        self.title = title
        self.description = description
        self.schedule = schedule
        self.alarmMinutesAfterMidnight = alarmMinutesAfterMidnight
    }
}

/// iCalendar (RFC 5545) feeds of reminders, so a phone's own calendar shows and alerts them.
public enum ICalendar {
    /// The RRULE that reproduces `ReminderSchedule`'s clamping: a monthly reminder on the 29th–31st
    /// takes the last existing day of {28…day}; a Feb 29 yearly one takes Feb 28 in common years.
    public static func recurrenceRule(for schedule: ReminderSchedule) -> String? {
        let start = schedule.initialDate
        func interval(_ n: Int) -> String { n > 1 ? ";INTERVAL=\(n)" : "" }
        switch schedule.recurrence {
        case .once:
            return nil
        case .weeks(let n):
            return "FREQ=WEEKLY" + interval(n)
        case .months(let n):
            guard start.day > 28 else { return "FREQ=MONTHLY" + interval(n) }
            let days = (28...start.day).map(String.init).joined(separator: ",")
            return "FREQ=MONTHLY" + interval(n) + ";BYMONTHDAY=\(days);BYSETPOS=-1"
        case .years(let n):
            guard start.month == 2, start.day == 29 else { return "FREQ=YEARLY" + interval(n) }
            return "FREQ=YEARLY" + interval(n) + ";BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"
        }
    }

    /// A VCALENDAR of all-day VEVENTs, CRLF line endings, lines folded at 75 octets.
    public static func write(_ events: [CalendarEvent], calendarName: String, stamp: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Locify//Locify Reminders//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + ContentLines.escape(calendarName),
        ]
        let stampText = basicTimestamp(stamp)
        for event in events { lines += eventLines(event, stamp: stampText) }
        lines.append("END:VCALENDAR")
        return lines.map(ContentLines.fold).joined()
    }

    /// One all-day VEVENT with its rule and alarm, from BEGIN to END.
    static func eventLines(_ event: CalendarEvent, stamp stampText: String) -> [String] {
        let start = event.schedule.initialDate
        let end = start.adding(days: 1) ?? start
        var lines = [
            "BEGIN:VEVENT", "UID:" + ContentLines.escape(event.uid), "DTSTAMP:" + stampText,
            "DTSTART;VALUE=DATE:" + basicDate(start), "DTEND;VALUE=DATE:" + basicDate(end),
            "SUMMARY:" + ContentLines.escape(event.title),
        ]
        if let description = event.description, !description.isEmpty {
            lines.append("DESCRIPTION:" + ContentLines.escape(description))
        }
        if let rule = recurrenceRule(for: event.schedule) { lines.append("RRULE:" + rule) }
        // A URI value: its commas and semicolons are part of it, not list separators to escape.
        if let url = event.url { lines.append("URL:" + url) }
        lines.append("TRANSP:TRANSPARENT")
        if let minutes = event.alarmMinutesAfterMidnight {
            lines += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + ContentLines.escape(event.title),
                "TRIGGER;RELATED=START:" + duration(minutes: minutes), "END:VALARM",
            ]
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// Reads the VEVENTs of a calendar. Events whose dates or rules Locify cannot represent are
    /// reported with the reason, not dropped silently.
    public static func read(_ text: String) -> (events: [CalendarEvent], issues: [InterchangeIssue]) {
        var events: [CalendarEvent] = []
        var issues: [InterchangeIssue] = []
        var current: [ContentLine]?
        var inAlarm = false
        var alarm: String?
        var count = 0
        for line in ContentLines.parse(text) {
            switch (line.name, line.value.uppercased()) {
            case ("BEGIN", "VEVENT"):
                current = []
                alarm = nil
                count += 1
            case ("BEGIN", "VALARM"):
                inAlarm = true
            case ("END", "VALARM"):
                inAlarm = false
            case ("END", "VEVENT"):
                if let lines = current {
                    switch event(from: lines, alarm: alarm) {
                    case .success(let event): events.append(event)
                    case .failure(let issue): issues.append(InterchangeIssue(record: count, reason: issue.reason))
                    }
                }
                current = nil
            default:
                if inAlarm {
                    if line.name == "TRIGGER" { alarm = line.value }
                } else {
                    current?.append(line)
                }
            }
        }
        return (events, issues)
    }

    /// Why a calendar object cannot be read.
    public struct Problem: Error, Equatable, Sendable {
        public let reason: String
        /// The object is of a kind of component the calendar does not hold (an event among tasks).
        public var isUnsupportedComponent = false
    }

    static func event(from lines: [ContentLine], alarm: String?) -> Result<CalendarEvent, Problem> {
        func value(_ name: String) -> String? { lines.first { $0.name == name }?.value }
        guard let startText = value("DTSTART"), let start = parseDate(startText) else {
            return .failure(Problem(reason: "no DTSTART date"))
        }
        let title = value("SUMMARY").map(ContentLines.unescape) ?? ""
        guard !title.isEmpty else { return .failure(Problem(reason: "no SUMMARY")) }
        var recurrence = Recurrence.once
        if let rule = value("RRULE") {
            guard let parsed = parseRule(rule, start: start) else {
                return .failure(Problem(reason: "the rule \(rule) is not one-time, every N weeks, months or years"))
            }
            recurrence = parsed
        }
        return .success(
            CalendarEvent(
                uid: value("UID").map(ContentLines.unescape) ?? UUID().uuidString,
                title: title, description: value("DESCRIPTION").map(ContentLines.unescape),
                schedule: ReminderSchedule(initialDate: start, recurrence: recurrence),
                alarmMinutesAfterMidnight: alarm.flatMap(parseDuration), url: value("URL")))
    }

    /// The rules `recurrenceRule(for:)` writes, and their plain forms from other calendars.
    static func parseRule(_ rule: String, start: CalendarDate) -> Recurrence? {
        var parts: [String: String] = [:]
        for pair in rule.split(separator: ";") {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2 else { return nil }
            parts[keyValue[0].uppercased()] = keyValue[1].uppercased()
        }
        let interval = parts["INTERVAL"].flatMap(Int.init) ?? 1
        guard interval >= 1, parts["COUNT"] == nil, parts["UNTIL"] == nil, parts["BYDAY"] == nil else { return nil }
        let clampDays = (28...max(28, start.day)).map(String.init).joined(separator: ",")
        switch parts["FREQ"] {
        case "WEEKLY":
            return parts.keys.allSatisfy { ["FREQ", "INTERVAL", "WKST"].contains($0) } ? .weeks(interval) : nil
        case "MONTHLY":
            let plain = parts["BYMONTHDAY"] == nil || parts["BYMONTHDAY"] == String(start.day)
            let clamped = parts["BYMONTHDAY"] == clampDays && parts["BYSETPOS"] == "-1"
            return (plain && parts["BYSETPOS"] == nil) || clamped ? .months(interval) : nil
        case "YEARLY":
            let clamped =
                start.month == 2 && start.day == 29 && parts["BYMONTH"] == "2"
                && parts["BYMONTHDAY"] == "28,29" && parts["BYSETPOS"] == "-1"
            let plain =
                parts["BYMONTHDAY"] == nil && parts["BYSETPOS"] == nil
                && (parts["BYMONTH"] == nil || parts["BYMONTH"] == String(start.month))
            return plain || clamped ? .years(interval) : nil
        default:
            return nil
        }
    }

    static func basicDate(_ date: CalendarDate) -> String {
        String(format: "%04d%02d%02d", date.year, date.month, date.day)
    }

    static func parseDate(_ text: String) -> CalendarDate? {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isNumber), let year = Int(digits.prefix(4)),
            let month = Int(digits.dropFirst(4).prefix(2)), let day = Int(digits.suffix(2))
        else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }

    static func basicTimestamp(_ date: Date) -> String {
        Timestamp.string(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// `PT9H`, `PT9H30M`, `PT0S`.
    static func duration(minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if minutes == 0 { return "PT0S" }
        return "PT" + (hours > 0 ? "\(hours)H" : "") + (rest > 0 ? "\(rest)M" : "")
    }

    static func parseDuration(_ text: String) -> Int? {
        var body = Substring(text.uppercased())
        var sign = 1
        if body.hasPrefix("-") {
            sign = -1
            body = body.dropFirst()
        } else if body.hasPrefix("+") {
            body = body.dropFirst()
        }
        guard body.hasPrefix("P") else { return nil }
        body = body.dropFirst()
        var minutes = 0
        var number = 0
        var inTime = false
        for character in body {
            if let digit = character.wholeNumberValue {
                number = number * 10 + digit
                continue
            }
            switch character {
            case "T": inTime = true
            case "W": minutes += number * 7 * 1440
            case "D": minutes += number * 1440
            case "H" where inTime: minutes += number * 60
            case "M" where inTime: minutes += number
            case "S" where inTime: break
            default: return nil
            }
            number = 0
        }
        return sign * minutes
    }
}
