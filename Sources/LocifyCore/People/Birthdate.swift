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

/// A day like a birthday as typed (a birthday, the day two people met): known or not, from a day and a
/// month with or without a year, or from an age.
struct SpecialDateDraft {
    /// The wire names of the fields and how messages name the day.
    struct Naming {
        let day: String
        let month: String
        let year: String
        let age: String
        /// "Birthday".
        let label: String
        /// "Birth year".
        let yearLabel: String
    }

    /// nil: decide from the other fields (known when a day and month are given, or an age).
    var isKnown: Bool?
    var day: Int?
    var month: Int?
    var year: Int?
    var isAgeBased: Bool
    var age: Int?

    /// `today` is the owner's current day: it bounds years and turns an age into a year.
    func checked(today: CalendarDate, naming: Naming, check: inout FieldChecker) -> Birthdate? {
        let known = isKnown ?? (isAgeBased ? age != nil || year != nil : day != nil || month != nil)
        guard known else { return nil }
        if isAgeBased {
            // A stored age-based day comes back with its year and no age: keep that year.
            if age == nil, let year, (1...today.year).contains(year) {
                return Birthdate(day: 1, month: 1, year: year, isAgeBased: true)
            }
            guard let age, (0...150).contains(age) else {
                check.fail(naming.age, "Age must be a whole number from 0 to 150.")
                return nil
            }
            // Monica stores an age-based day as January 1st of the derived year.
            return Birthdate(day: 1, month: 1, year: today.year - age, isAgeBased: true)
        }
        guard let month, (1...12).contains(month) else {
            check.fail(naming.month, "\(naming.label) month must be from 1 to 12.")
            return nil
        }
        guard let day, (1...31).contains(day) else {
            check.fail(naming.day, "\(naming.label) day must be from 1 to 31.")
            return nil
        }
        if let year, !(1...today.year).contains(year) {
            check.fail(naming.year, "\(naming.yearLabel) must be between 1 and \(today.year).")
            return nil
        }
        guard let date = Birthdate(day: day, month: month, year: year) else {
            check.fail(naming.day, "That day does not exist in that month.")
            return nil
        }
        if let year = date.year, let calendarDate = CalendarDate(year: year, month: month, day: day),
            calendarDate > today
        {
            check.fail(naming.year, "\(naming.label) cannot be in the future.")
            return nil
        }
        return date
    }
}
