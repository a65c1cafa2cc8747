import Foundation

/// A moment as clients write it: ISO 8601 with or without fractions (`2024-05-04T10:06:05Z`,
/// `2024-05-04T12:06:05+02:00`), Monica's database form (`2024-05-04 10:06:05`, UTC) or a day alone
/// (`2024-05-04`, its midnight in UTC).
public enum MomentText {
    public static func date(from text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        let spaced = text.split(separator: " ", omittingEmptySubsequences: true)
        if spaced.count == 2, spaced[1].contains(":") {
            return try? Date("\(spaced[0])T\(spaced[1])Z", strategy: Date.ISO8601FormatStyle())
        }
        guard let day = CalendarDate(iso8601: text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
    }

    /// The UTC day of a moment as clients write it (a day stays that day).
    public static func day(from text: String?) -> CalendarDate? {
        date(from: text).map { CalendarDate($0, in: .gmt) }
    }

    /// "1 May 2024", with the time when it is not midnight: a moment as it was typed (calls and messages
    /// keep no time zone, as in Monica).
    public static func dayAndTime(_ moment: Date) -> String {
        let stamp = Timestamp.string(moment)
        let day = CalendarDate(moment, in: .gmt).dayMonthYear
        let clock = stamp.dropFirst(11).prefix(5)
        return clock == "00:00" ? day : "\(day), \(clock)"
    }
}
