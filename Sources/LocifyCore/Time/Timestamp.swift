import Foundation

public enum Timestamp {
    /// `2024-05-04T10:06:05Z`: UTC with whole seconds, because some Monica clients reject fractions.
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }
}
