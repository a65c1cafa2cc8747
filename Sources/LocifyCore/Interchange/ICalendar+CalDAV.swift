import Foundation

/// A task as a to-do (RFC 5545 3.6.2): what a phone's Reminders or Tasks app shows and ticks.
public struct CalendarTask: Equatable, Sendable {
    public var uid: String
    public var title: String
    public var description: String?
    public var isCompleted: Bool
    public var completedAt: Date?
    public var createdAt: Date?
    public var updatedAt: Date?
    /// Where to read more (the contact's page).
    public var url: String?

    public init(
        uid: String, title: String, description: String? = nil, isCompleted: Bool, completedAt: Date? = nil,
        createdAt: Date? = nil, updatedAt: Date? = nil, url: String? = nil
    ) {
        self.uid = uid
        self.title = title
        self.description = description
        self.isCompleted = isCompleted
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.url = url
    }
}

/// CalDAV's calendar object resources (RFC 4791 4.1): one VCALENDAR per event or to-do, without the
/// `METHOD` a published feed has.
extension ICalendar {
    static let objectHeader = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Locify//Locify//EN", "CALSCALE:GREGORIAN"]

    /// One event as a calendar object.
    public static func object(_ event: CalendarEvent, stamp: Date) -> String {
        (objectHeader + eventLines(event, stamp: basicTimestamp(stamp)) + ["END:VCALENDAR"])
            .map(ContentLines.fold).joined()
    }

    /// The to-do properties Locify writes; the others of a client's to-do are carried over.
    static let modeledTaskProperties: Set<String> = [
        "UID", "DTSTAMP", "SUMMARY", "DESCRIPTION", "STATUS", "COMPLETED", "PERCENT-COMPLETE", "CREATED",
        "LAST-MODIFIED", "URL",
    ]

    /// One task as a calendar object. With `original` (the object its client last wrote), what Locify
    /// does not model of it is kept: the due date, priority, categories, alarms, the time zones they use.
    public static func object(_ task: CalendarTask, stamp: Date, keepingFrom original: String? = nil) -> String {
        var lines = ["BEGIN:VTODO", "UID:" + ContentLines.escape(task.uid), "DTSTAMP:" + basicTimestamp(stamp)]
        if let created = task.createdAt { lines.append("CREATED:" + basicTimestamp(created)) }
        if let updated = task.updatedAt { lines.append("LAST-MODIFIED:" + basicTimestamp(updated)) }
        lines.append("SUMMARY:" + ContentLines.escape(task.title))
        if let description = task.description, !description.isEmpty {
            lines.append("DESCRIPTION:" + ContentLines.escape(description))
        }
        if task.isCompleted {
            lines.append("STATUS:COMPLETED")
            lines.append("PERCENT-COMPLETE:100")
            if let completed = task.completedAt { lines.append("COMPLETED:" + basicTimestamp(completed)) }
        } else {
            lines.append("STATUS:NEEDS-ACTION")
        }
        if let url = task.url { lines.append("URL:" + url) }
        var otherComponents: [String] = []
        if let original {
            let kept = keptLines(of: original, component: "VTODO", modeled: modeledTaskProperties)
            lines += kept.inside
            otherComponents = kept.outside
        }
        lines.append("END:VTODO")
        return (objectHeader + otherComponents + lines + ["END:VCALENDAR"]).map(ContentLines.fold).joined()
    }

    /// The raw lines of `text` to carry over: inside the first `component`, its properties not in `modeled`
    /// and its own components whole (alarms); outside it, the calendar's other components whole (time
    /// zones). Folded lines are unfolded; each is written again as it was.
    static func keptLines(of text: String, component: String, modeled: Set<String>) -> (
        inside: [String], outside: [String]
    ) {
        enum Section { case calendar, main, other }
        var inside: [String] = []
        var outside: [String] = []
        var depth = 0
        var section = Section.calendar
        var seenMain = false
        for raw in ContentLines.unfold(text) {
            guard let line = ContentLines.parseLine(raw) else { continue }
            if line.name == "BEGIN" {
                depth += 1
                if depth == 2 {
                    section = line.value.uppercased() == component && !seenMain ? .main : .other
                    if section == .main {
                        seenMain = true
                        continue
                    }
                }
            }
            let ends = line.name == "END"
            if ends, depth == 2, section == .main {
                section = .calendar
                depth -= 1
                continue
            }
            switch section {
            case .main: if depth > 2 || !modeled.contains(line.name) { inside.append(raw) }
            // Another component of the calendar (a VTIMEZONE the kept properties name): kept whole.
            case .other: outside.append(raw)
            case .calendar: break
            }
            if ends {
                depth -= 1
                if depth < 2 { section = .calendar }
            }
        }
        return (inside, outside)
    }

    /// The one to-do of a calendar object a client wrote.
    public static func readTask(_ text: String) -> Result<CalendarTask, Problem> {
        var components: [String] = []
        var lines: [ContentLine] = []
        var depth = 0
        var inTask = false
        for line in ContentLines.parse(text) {
            let value = line.value.uppercased()
            if line.name == "BEGIN" {
                depth += 1
                if depth == 1, value != "VCALENDAR" { return .failure(Problem(reason: "The body is no VCALENDAR.")) }
                if depth == 2 {
                    if value != "VTIMEZONE" { components.append(value) }
                    inTask = value == "VTODO" && components.count == 1
                }
                continue
            }
            if line.name == "END" {
                if depth == 2 { inTask = false }
                depth -= 1
                continue
            }
            if inTask, depth == 2 { lines.append(line) }
        }
        guard !components.isEmpty else { return .failure(Problem(reason: "The body is no calendar object.")) }
        guard components.allSatisfy({ $0 == "VTODO" }) else {
            return .failure(
                Problem(
                    reason: "Tasks are to-dos (VTODO); this calendar holds nothing else.", isUnsupportedComponent: true)
            )
        }
        guard components.count == 1 else {
            return .failure(Problem(reason: "A task is one VTODO; repeating tasks are not supported."))
        }
        func value(_ name: String) -> String? { lines.first { $0.name == name }?.value }
        guard let uid = value("UID").map(ContentLines.unescape), !uid.isEmpty else {
            return .failure(Problem(reason: "The to-do has no UID."))
        }
        let status = value("STATUS")?.uppercased()
        let percent = value("PERCENT-COMPLETE").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let completedAt = value("COMPLETED").flatMap(parseTimestamp)
        let isCompleted = status == "COMPLETED" || (status == nil && (completedAt != nil || percent == 100))
        return .success(
            CalendarTask(
                uid: uid, title: value("SUMMARY").map(ContentLines.unescape) ?? "",
                description: value("DESCRIPTION").map(ContentLines.unescape), isCompleted: isCompleted,
                completedAt: completedAt))
    }

    /// `20240504T100605Z` (UTC), `20240504T100605` (floating, read as UTC) or `20240504` (a day).
    public static func parseTimestamp(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard let day = parseDate(text) else { return nil }
        var seconds = 0
        if text.count > 8 {
            let clock = text.dropFirst(9).prefix(6)
            guard text.dropFirst(8).first == "T", clock.count == 6, clock.allSatisfy(\.isNumber),
                let hours = Int(clock.prefix(2)), let minutes = Int(clock.dropFirst(2).prefix(2)),
                let secondsPart = Int(clock.suffix(2))
            else { return nil }
            seconds = hours * 3600 + minutes * 60 + secondsPart
        }
        return NotificationSchedule.moment(of: day, minutes: 0, in: .gmt).addingTimeInterval(TimeInterval(seconds))
    }
}
