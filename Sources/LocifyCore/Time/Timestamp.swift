import Foundation

public enum Timestamp {
    /// When something that holds (a favourite, a done task) began holding: stamped `now` when it starts,
    /// kept while it goes on holding (Monica stamped it anew on every save), cleared when it stops.
    public static func since(_ previous: Date?, holding: Bool, now: Date) -> Date? {
        holding ? previous ?? now : nil
    }

    /// `2024-05-04T10:06:05Z`: UTC with whole seconds (truncated), because some Monica clients reject
    /// fractions. Worked out by arithmetic, not a formatter: every contact in a list has two of these.
    public static func string(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = CalendarDate.civil(fromDaysSince1970: days)
        let clock = String(unsafeUninitializedCapacity: 10) { buffer in
            buffer[0] = UInt8(ascii: "T")
            writeTwoDigits(secondOfDay / 3600, into: buffer, at: 1)
            buffer[3] = UInt8(ascii: ":")
            writeTwoDigits(secondOfDay / 60 % 60, into: buffer, at: 4)
            buffer[6] = UInt8(ascii: ":")
            writeTwoDigits(secondOfDay % 60, into: buffer, at: 7)
            buffer[9] = UInt8(ascii: "Z")
            return 10
        }
        return CalendarDate.isoDate(year: year, month: month, day: day) + clock
    }

    /// `2024-05-04`: the UTC day of `date`, as pages show when something was written, added or done.
    public static func day(_ date: Date) -> String {
        String(string(date).prefix(10))
    }

    static func writeTwoDigits(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        buffer[index + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }
}

extension Int {
    /// Quotient and remainder rounded towards minus infinity, so times before 1970 fall on the right day.
    func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let quotient = self >= 0 ? self / divisor : (self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}

extension CalendarDate {
    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2024-05-04` into the first ten bytes of `buffer`, for a year from 0 to 9999.
    static func writeISODate(year: Int, month: Int, day: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        Timestamp.writeTwoDigits(year / 100, into: buffer, at: 0)
        Timestamp.writeTwoDigits(year % 100, into: buffer, at: 2)
        buffer[4] = UInt8(ascii: "-")
        Timestamp.writeTwoDigits(month, into: buffer, at: 5)
        buffer[7] = UInt8(ascii: "-")
        Timestamp.writeTwoDigits(day, into: buffer, at: 8)
    }

    /// `2024-05-04`, zero-padded as `%04d-%02d-%02d` pads.
    static func isoDate(year: Int, month: Int, day: Int) -> String {
        if (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day) {
            return String(unsafeUninitializedCapacity: 10) { buffer in
                writeISODate(year: year, month: month, day: day, into: buffer)
                return 10
            }
        }
        let yearText = String(abs(year))
        var text = year < 0 ? "-" : ""
        if yearText.utf8.count < 4 {
            text += String(repeating: "0", count: 4 - yearText.utf8.count - (year < 0 ? 1 : 0))
        }
        text += yearText
        text += month < 10 ? "-0\(month)" : "-\(month)"
        text += day < 10 ? "-0\(day)" : "-\(day)"
        return text
    }
}
