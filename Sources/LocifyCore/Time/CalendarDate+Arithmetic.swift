extension CalendarDate {
    /// Days since a fixed epoch (the proleptic Gregorian day number), for day arithmetic.
    public var dayNumber: Int {
        // Fliegel & Van Flandern's conversion to a Julian day number.
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    }

    public init?(dayNumber: Int) {
        let a = dayNumber + 32044
        let b = (4 * a + 3) / 146_097
        let c = a - 146_097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        self.init(year: 100 * b + d - 4800 + m / 10, month: m + 3 - 12 * (m / 10), day: e - (153 * m + 2) / 5 + 1)
    }

    /// The day `days` later (earlier when negative); nil outside years 1–9999.
    public func adding(days: Int) -> CalendarDate? {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// The same day `months` later, clamped to the last day of a shorter month (Jan 31 + 1 → Feb 28/29).
    public func adding(months: Int) -> CalendarDate? {
        let index = year * 12 + (month - 1) + months
        let newYear = index / 12
        let newMonth = index % 12 + 1
        guard (1...9999).contains(newYear) else { return nil }
        return CalendarDate(
            year: newYear, month: newMonth, day: min(day, CalendarDate.daysIn(month: newMonth, year: newYear)))
    }

    /// 1 = Sunday … 7 = Saturday, as Foundation's `Calendar` numbers weekdays.
    public var weekday: Int {
        (dayNumber + 1) % 7 + 1
    }

    public var lastDayOfMonth: CalendarDate {
        CalendarDate(year: year, month: month, day: CalendarDate.daysIn(month: month, year: year)) ?? self
    }

    /// Months from `other`'s month to this one (same day ignored).
    func months(since other: CalendarDate) -> Int {
        (year * 12 + month) - (other.year * 12 + other.month)
    }
}

extension CalendarDate {
    /// The days of the month `offset` months from this date's month: from its first day (or from
    /// `start` when given, for "the rest of this month") to its last.
    public func month(offsetBy offset: Int, from start: CalendarDate? = nil) -> ClosedRange<CalendarDate>? {
        guard let first = CalendarDate(year: year, month: month, day: 1)?.adding(months: offset),
            let last = CalendarDate(
                year: first.year, month: first.month, day: CalendarDate.daysIn(month: first.month, year: first.year))
        else { return nil }
        let lower = max(start ?? first, first)
        return lower <= last ? lower...last : nil
    }
}
