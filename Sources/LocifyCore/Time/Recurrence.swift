/// How often a reminder comes back. Monica's `frequency_type` and `frequency_number`.
public enum Recurrence: Hashable, Sendable {
    case once
    case weeks(Int)
    case months(Int)
    case years(Int)

    /// From Monica's fields: `one_time`, `week`, `month`, `year` and a number ≥ 1.
    public init?(frequencyType: String, frequencyNumber: Int) {
        guard frequencyNumber >= 1 || frequencyType == "one_time" else { return nil }
        switch frequencyType {
        case "one_time": self = .once
        case "week": self = .weeks(frequencyNumber)
        case "month": self = .months(frequencyNumber)
        case "year": self = .years(frequencyNumber)
        default: return nil
        }
    }

    public var frequencyType: String {
        switch self {
        case .once: "one_time"
        case .weeks: "week"
        case .months: "month"
        case .years: "year"
        }
    }

    public var frequencyNumber: Int {
        switch self {
        case .once: 1
        case .weeks(let n), .months(let n), .years(let n): n
        }
    }
}

/// The dates a reminder falls on. Occurrence k is the initial date plus k·N units, the day clamped
/// to the month's last day, always counted from the initial date, so a Jan 31 monthly reminder is
/// on Feb 28/29, Mar 31, Apr 30 (Monica drifts to the 28th for ever after February; Locify does not).
public struct ReminderSchedule: Hashable, Sendable {
    public let initialDate: CalendarDate
    public let recurrence: Recurrence

    public init(initialDate: CalendarDate, recurrence: Recurrence) {
        self.initialDate = initialDate
        self.recurrence = recurrence
    }

    /// Occurrence `index` (0 is the initial date); nil past the calendar's end or, for a one-time
    /// reminder, for any index but 0.
    public func occurrence(_ index: Int) -> CalendarDate? {
        guard index >= 0 else { return nil }
        switch recurrence {
        case .once: return index == 0 ? initialDate : nil
        case .weeks(let n): return initialDate.adding(days: 7 * n * index)
        case .months(let n): return initialDate.adding(months: n * index)
        case .years(let n): return initialDate.adding(months: 12 * n * index)
        }
    }

    /// The first occurrence on or after `date`; nil for a one-time reminder already past.
    public func nextOccurrence(onOrAfter date: CalendarDate) -> CalendarDate? {
        guard date > initialDate else { return initialDate }
        let index: Int
        switch recurrence {
        case .once:
            return nil
        case .weeks(let n):
            let days = date.dayNumber - initialDate.dayNumber
            index = (days + 7 * n - 1) / (7 * n)
        case .months(let n):
            index = date.months(since: initialDate) / n
        case .years(let n):
            index = date.months(since: initialDate) / (12 * n)
        }
        // The month-based guess can land a few days early in the right month; the next one is after.
        var candidate = index
        while let occurrence = occurrence(candidate), occurrence < date { candidate += 1 }
        return occurrence(candidate)
    }

    /// Every occurrence in `range`, in order.
    public func occurrences(in range: ClosedRange<CalendarDate>) -> [CalendarDate] {
        guard var date = nextOccurrence(onOrAfter: range.lowerBound) else { return [] }
        var result: [CalendarDate] = []
        var index = indexOf(date)
        while date <= range.upperBound {
            result.append(date)
            index += 1
            guard let next = occurrence(index) else { break }
            date = next
        }
        return result
    }

    private func indexOf(_ date: CalendarDate) -> Int {
        switch recurrence {
        case .once: return 0
        case .weeks(let n): return (date.dayNumber - initialDate.dayNumber) / (7 * n)
        case .months(let n): return date.months(since: initialDate) / n
        case .years(let n): return date.months(since: initialDate) / (12 * n)
        }
    }
}
