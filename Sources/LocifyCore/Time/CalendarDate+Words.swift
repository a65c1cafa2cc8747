extension CalendarDate {
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    /// Indexed by `weekday - 1` (1 = Sunday).
    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// "22 November 2026".
    public var dayMonthYear: String { "\(day) \(Self.monthNames[month - 1]) \(year)" }

    /// "Sunday 22 November 2026".
    public var longDescription: String { "\(Self.weekdayNames[weekday - 1]) \(dayMonthYear)" }
}

extension Recurrence {
    /// "once", "every week", "every 3 months".
    public var words: String {
        switch self {
        case .once: "once"
        case .weeks(let n): n == 1 ? "every week" : "every \(n) weeks"
        case .months(let n): n == 1 ? "every month" : "every \(n) months"
        case .years(let n): n == 1 ? "every year" : "every \(n) years"
        }
    }
}
