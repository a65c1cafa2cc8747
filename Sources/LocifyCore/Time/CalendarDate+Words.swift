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
