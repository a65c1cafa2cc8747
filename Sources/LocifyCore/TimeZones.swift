import Foundation

public enum TimeZones {
    /// Every IANA zone the system knows, sorted, for a picker.
    public static let identifiers: [String] = TimeZone.knownTimeZoneIdentifiers.sorted()
    private static let known = Set(identifiers)

    public static func isKnown(_ identifier: String) -> Bool {
        identifier == "UTC" || known.contains(identifier)
    }
}
