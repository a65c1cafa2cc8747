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
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        self.init(latitude: latitude, longitude: longitude)
    }
}
