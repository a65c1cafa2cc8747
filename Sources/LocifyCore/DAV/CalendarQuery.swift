import Foundation

/// A `time-range` (RFC 4791 9.9): instants in UTC; a side left out is open.
public struct DAVTimeRange: Equatable, Sendable {
    public var start: Date?
    public var end: Date?

    public init(start: Date?, end: Date?) {
        self.start = start
        self.end = end
    }
}

/// A `prop-filter` of a `calendar-query` (RFC 4791 9.7.2) on one property of a component.
public struct DAVPropertyFilter: Equatable, Sendable {
    public var name: String
    public var isNotDefined: Bool
    public var textMatch: DAVTextMatch?
    public var timeRange: DAVTimeRange?

    public init(
        name: String, isNotDefined: Bool = false, textMatch: DAVTextMatch? = nil, timeRange: DAVTimeRange? = nil
    ) {
        self.name = name
        self.isNotDefined = isNotDefined
        self.textMatch = textMatch
        self.timeRange = timeRange
    }
}

/// A `comp-filter` of a `calendar-query` (RFC 4791 9.7.1): a component by name, and what must hold of it.
public struct DAVComponentFilter: Equatable, Sendable {
    public var name: String
    public var isNotDefined: Bool
    public var timeRange: DAVTimeRange?
    public var properties: [DAVPropertyFilter]
    public var components: [DAVComponentFilter]

    public init(
        name: String, isNotDefined: Bool = false, timeRange: DAVTimeRange? = nil,
        properties: [DAVPropertyFilter] = [], components: [DAVComponentFilter] = []
    ) {
        self.name = name
        self.isNotDefined = isNotDefined
        self.timeRange = timeRange
        self.properties = properties
        self.components = components
    }
}

extension DAVComponentFilter {
    /// What of this filter (the calendar's, at the top) Locify does not evaluate: a filter on the
    /// calendar's own properties, or anything but presence asked of an alarm inside an event.
    public var unsupportedPart: String? {
        if timeRange != nil || !properties.isEmpty { return "a filter on the calendar's own properties" }
        for main in components {
            for inner in main.components
            where inner.timeRange != nil || !inner.properties.isEmpty || !inner.components.isEmpty {
                return "a filter inside \(inner.name)"
            }
        }
        return nil
    }
}

/// What a `calendar-query` filter is evaluated on: a calendar object's one event or to-do, read from its
/// text, and when it happens.
public struct CalendarObjectOutline: Sendable {
    /// `VEVENT` or `VTODO`.
    public let component: String
    /// The component's own properties (not its alarms').
    public let properties: [ContentLine]
    /// Its alarms and other components inside it, by name.
    public let subcomponents: Set<String>

    public init(text: String) {
        var component = ""
        var properties: [ContentLine] = []
        var subcomponents: Set<String> = []
        var depth = 0
        var inMain = false
        for line in ContentLines.parse(text) {
            if line.name == "BEGIN" {
                depth += 1
                let value = line.value.uppercased()
                if depth == 2, component.isEmpty, value != "VTIMEZONE" {
                    component = value
                    inMain = true
                }
                if depth == 3, inMain { subcomponents.insert(value) }
            } else if line.name == "END" {
                if depth == 2 { inMain = false }
                depth -= 1
            } else if depth == 2, inMain {
                properties.append(line)
            }
        }
        self.component = component
        self.properties = properties
        self.subcomponents = subcomponents
    }

    func values(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }

    /// Whether the object answers `filter`, which names the calendar (`VCALENDAR`) at its top.
    public func matches(_ filter: DAVComponentFilter) -> Bool {
        guard filter.name == "VCALENDAR" else { return false }
        if filter.isNotDefined { return false }
        guard filter.timeRange == nil, filter.properties.isEmpty else { return false }
        return filter.components.allSatisfy(matchesMain)
    }

    private func matchesMain(_ filter: DAVComponentFilter) -> Bool {
        let present = filter.name == component
        if filter.isNotDefined { return !present }
        guard present else { return false }
        if let range = filter.timeRange, !overlaps(range) { return false }
        return filter.properties.allSatisfy(matches)
            && filter.components.allSatisfy { inner in
                inner.isNotDefined ? !subcomponents.contains(inner.name) : subcomponents.contains(inner.name)
            }
    }

    private func matches(_ filter: DAVPropertyFilter) -> Bool {
        let lines = values(filter.name)
        if filter.isNotDefined { return lines.isEmpty }
        guard !lines.isEmpty else { return false }
        if let match = filter.textMatch, !match.matches(lines.map { ContentLines.unescape($0.value) }) { return false }
        if let range = filter.timeRange {
            let instants = lines.compactMap { ICalendar.parseTimestamp($0.value) }
            return instants.contains { instant in
                (range.start.map { $0 <= instant } ?? true) && (range.end.map { instant < $0 } ?? true)
            }
        }
        return true
    }

    private func instant(_ name: String) -> Date? { values(name).first.flatMap { ICalendar.parseTimestamp($0.value) } }

    /// RFC 4791 9.9: an all-day event (and each of its repetitions) spans its days in UTC; a to-do is
    /// placed by its start, due date, completion and creation, as the RFC's table says.
    func overlaps(_ range: DAVTimeRange) -> Bool {
        let start = range.start ?? .distantPast
        let end = range.end ?? .distantFuture
        switch component {
        case "VEVENT":
            guard let first = values("DTSTART").first.flatMap({ ICalendar.parseDate($0.value) }) else { return false }
            var schedule = ReminderSchedule(initialDate: first, recurrence: .once)
            if let rule = values("RRULE").first?.value, let recurrence = ICalendar.parseRule(rule, start: first) {
                schedule = ReminderSchedule(initialDate: first, recurrence: recurrence)
            }
            // The first day whose end is after the range's start; it must begin before the range's end.
            let firstDay = CalendarDate(start, in: .gmt)
            guard let day = schedule.nextOccurrence(onOrAfter: firstDay) else { return false }
            return NotificationSchedule.moment(of: day, minutes: 0, in: .gmt) < end
        case "VTODO":
            let begins = instant("DTSTART")
            let due = instant("DUE")
            let completed = instant("COMPLETED")
            let created = instant("CREATED")
            if let begins, let due { return (start < due || start <= begins) && (end > begins || end >= due) }
            if let begins { return start <= begins && end > begins }
            if let due { return start < due && end >= due }
            if let completed, let created {
                return (start <= created || start <= completed) && (end >= created || end >= completed)
            }
            if let completed { return start <= completed && end >= completed }
            if let created { return end > created }
            return true
        default:
            return false
        }
    }
}

/// What a report's `calendar-data` asks of each object (RFC 4791 9.6): some of its components and
/// properties only, and a repeating event expanded into its instances in a time range.
public struct DAVCalendarDataRequest: Equatable, Sendable {
    /// A component asked for: nil properties or components mean all of them.
    public struct Component: Equatable, Sendable {
        public var name: String
        public var properties: [String]?
        public var components: [Component]?

        public init(name: String, properties: [String]? = nil, components: [Component]? = nil) {
            self.name = name
            self.properties = properties
            self.components = components
        }
    }

    /// nil: the whole object.
    public var component: Component?
    public var expand: DAVTimeRange?

    public init(component: Component? = nil, expand: DAVTimeRange? = nil) {
        self.component = component
        self.expand = expand
    }

    /// `text` as asked for: expanded first, then cut down to the components and properties named.
    public func selected(from text: String) -> String {
        let expanded = expand.map { ICalendar.expanded(text, in: $0) } ?? text
        guard let top = component else { return expanded }
        // The selection of each open component; nil for one left out (and all inside it).
        var open: [Component?] = []
        var kept: [String] = []
        for raw in ContentLines.unfold(expanded) {
            guard let line = ContentLines.parseLine(raw) else { continue }
            switch line.name {
            case "BEGIN":
                let name = line.value.uppercased()
                let selection: Component?
                if open.isEmpty {
                    selection = top.name == name ? top : nil
                } else if case .some(.some(let parent)) = open.last {
                    selection =
                        parent.components.map { asked in asked.first { $0.name == name } }
                        ?? Component(name: name)
                } else {
                    selection = nil
                }
                open.append(selection)
                if selection != nil { kept.append(raw) }
            case "END":
                if case .some(.some) = open.popLast() { kept.append(raw) }
            default:
                if case .some(.some(let current)) = open.last,
                    current.properties.map({ $0.contains(line.name) }) ?? true
                {
                    kept.append(raw)
                }
            }
        }
        return kept.map(ContentLines.fold).joined()
    }
}

extension ICalendar {
    /// RFC 4791 9.6.5: a repeating all-day event as its instances in `range`, each with its
    /// RECURRENCE-ID and without the rule. An object that does not repeat is the same object.
    public static func expanded(_ text: String, in range: DAVTimeRange) -> String {
        let outline = CalendarObjectOutline(text: text)
        guard outline.component == "VEVENT", let rule = outline.values("RRULE").first?.value,
            let first = outline.values("DTSTART").first.flatMap({ parseDate($0.value) }),
            let recurrence = parseRule(rule, start: first), let start = range.start, let end = range.end
        else { return text }
        let schedule = ReminderSchedule(initialDate: first, recurrence: recurrence)
        // The days whose span meets [start, end): from start's day to the day of the instant before end.
        let days = CalendarDate(start, in: .gmt)...CalendarDate(end.addingTimeInterval(-1), in: .gmt)
        var lines: [String] = []
        var master: [String] = []
        var inMaster = false
        for raw in ContentLines.unfold(text) {
            let name = ContentLines.parseLine(raw)?.name
            let value = ContentLines.parseLine(raw)?.value.uppercased()
            if name == "BEGIN", value == "VEVENT" {
                inMaster = true
                continue
            }
            if name == "END", value == "VEVENT" {
                inMaster = false
                for day in schedule.occurrences(in: days) {
                    let next = day.adding(days: 1) ?? day
                    lines.append("BEGIN:VEVENT")
                    lines += master.prefix { !$0.hasPrefix("BEGIN:") }
                    lines += [
                        "RECURRENCE-ID;VALUE=DATE:" + basicDate(day), "DTSTART;VALUE=DATE:" + basicDate(day),
                        "DTEND;VALUE=DATE:" + basicDate(next),
                    ]
                    lines += master.drop { !$0.hasPrefix("BEGIN:") }
                    lines.append("END:VEVENT")
                }
                continue
            }
            if inMaster {
                if !["RRULE", "DTSTART", "DTEND", "DURATION"].contains(name ?? "") { master.append(raw) }
            } else {
                lines.append(raw)
            }
        }
        return lines.map(ContentLines.fold).joined()
    }
}
