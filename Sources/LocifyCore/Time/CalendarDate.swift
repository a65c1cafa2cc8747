import Foundation

/// A day on the calendar with no time and no zone: birthdays and reminder dates are these,
/// never a `Date` at midnight, so they cannot drift when a user's timezone changes.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Returns nil unless the three parts name a real day (Feb 29 only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, also accepting a trailing time part (`2018-05-01T00:00:00Z`) as clients send.
    /// Read byte by byte: every stored reminder date passes through here, ten thousand per timeline.
    public init?(iso8601 text: String) {
        var text = text
        let parsed = text.withUTF8 { bytes -> (Int, Int, Int)? in
            guard bytes.count == 10 || (bytes.count > 10 && bytes[10] == UInt8(ascii: "T")),
                bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            return (year, month, day)
        }
        guard let (year, month, day) = parsed else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        // Gregorian components of a real Date are always a valid day.
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        Self.isoDate(year: year, month: month, day: day)
    }

    /// Monica's way of writing a date-only value: midnight UTC.
    public var midnightTimestamp: String { description + "T00:00:00Z" }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
