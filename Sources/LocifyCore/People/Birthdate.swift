/// A birthday as people know it: always a day and month, the year only when it is known.
public struct Birthdate: Hashable, Sendable {
    public let month: Int
    public let day: Int
    public let year: Int?
    /// True when the year was worked out from an age ("she is 40") rather than known.
    public let isAgeBased: Bool

    /// Returns nil unless the day exists in that month (Feb 29 needs a leap year when the year is given).
    public init?(day: Int, month: Int, year: Int? = nil, isAgeBased: Bool = false) {
        let referenceYear = year ?? 2000  // a leap year, so Feb 29 without a year is allowed
        guard CalendarDate(year: referenceYear, month: month, day: day) != nil else { return nil }
        self.day = day
        self.month = month
        self.year = year
        self.isAgeBased = year != nil && isAgeBased
    }

    public var isYearUnknown: Bool { year == nil }

    /// The date to show for this birthday. Monica writes unknown years as the current year, so clients
    /// that parse the value get a real date; Feb 29 falls back to Feb 28 in a common year.
    public func calendarDate(currentYear: Int) -> CalendarDate {
        let shownYear = year ?? currentYear
        let shownDay = min(day, CalendarDate.daysIn(month: month, year: shownYear))
        // Month and day were validated on creation, so this day exists.
        return CalendarDate(year: shownYear, month: month, day: shownDay)
            ?? CalendarDate(year: 2000, month: 1, day: 1)!
    }

    /// The age on `today`, when the year is known.
    public func age(on today: CalendarDate) -> Int? {
        guard let year else { return nil }
        let hadBirthday = (today.month, today.day) >= (month, day)
        return today.year - year - (hadBirthday ? 0 : 1)
    }
}
