import Foundation

public enum TimeZones {
    /// Every IANA zone the system knows, sorted, for a picker; UTC first. The system list leaves UTC
    /// out, and a picker without the stored value would silently select (and save) its first entry.
    public static let identifiers: [String] =
        ["UTC"] + TimeZone.knownTimeZoneIdentifiers.filter { $0 != "UTC" }.sorted()
    private static let known = Set(identifiers)

    public static func isKnown(_ identifier: String) -> Bool {
        known.contains(identifier)
    }
}
