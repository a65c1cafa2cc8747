import Foundation

/// A point on Earth in degrees (WGS 84).
public struct Coordinate: Hashable, Sendable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A position on Earth, or nil when either number is missing or out of range (−90…90, −180…180).
    public init?(validLatitude latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude, Self.isLatitude(latitude), Self.isLongitude(longitude) else {
            return nil
        }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Whether `value` is a latitude: −90…90 (not NaN).
    public static func isLatitude(_ value: Double) -> Bool { (-90...90).contains(value) }

    /// Whether `value` is a longitude: −180…180 (not NaN).
    public static func isLongitude(_ value: Double) -> Bool { (-180...180).contains(value) }

    /// What a form says of a latitude or a longitude out of range.
    public static let latitudeProblem = "Latitude must be between -90 and 90."
    public static let longitudeProblem = "Longitude must be between -180 and 180."
}
