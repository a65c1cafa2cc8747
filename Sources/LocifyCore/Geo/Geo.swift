import Foundation

/// Distances and areas on the Earth's surface (a sphere of the mean radius: good to about 0.5 %).
public enum Geo {
    public static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres (haversine).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = radians(a.latitude)
        let φ2 = radians(b.latitude)
        let Δφ = φ2 - φ1
        let Δλ = radians(b.longitude - a.longitude)
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusMeters * asin(min(1, sqrt(h)))
    }

    /// A latitude/longitude box that holds every point within `meters` of `center`, for an indexed
    /// pre-filter before exact distances. Near a pole, or when the box crosses the antimeridian, the
    /// longitude range is the whole circle (`crossesAntimeridian` tells the second case apart).
    public struct BoundingBox: Equatable, Sendable {
        public let minLatitude: Double
        public let maxLatitude: Double
        public let minLongitude: Double
        public let maxLongitude: Double
        /// True when the box wraps: longitudes ≥ minLongitude or ≤ maxLongitude.
        public let crossesAntimeridian: Bool

        public init(
            minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double,
            crossesAntimeridian: Bool
        ) {
            self.minLatitude = minLatitude
            self.maxLatitude = maxLatitude
            self.minLongitude = minLongitude
            self.maxLongitude = maxLongitude
            self.crossesAntimeridian = crossesAntimeridian
        }

        public func contains(_ point: Coordinate) -> Bool {
            guard (minLatitude...maxLatitude).contains(point.latitude) else { return false }
            if crossesAntimeridian { return point.longitude >= minLongitude || point.longitude <= maxLongitude }
            return (minLongitude...maxLongitude).contains(point.longitude)
        }
    }

    public static func boundingBox(around center: Coordinate, radius meters: Double) -> BoundingBox {
        let angular = meters / earthRadiusMeters
        let latitude = radians(center.latitude)
        let minLatitude = latitude - angular
        let maxLatitude = latitude + angular
        if minLatitude <= -.pi / 2 || maxLatitude >= .pi / 2 {
            return BoundingBox(
                minLatitude: max(degrees(minLatitude), -90), maxLatitude: min(degrees(maxLatitude), 90),
                minLongitude: -180, maxLongitude: 180, crossesAntimeridian: false)
        }
        let Δλ = asin(min(1, sin(angular) / cos(latitude)))
        var minLongitude = center.longitude - degrees(Δλ)
        var maxLongitude = center.longitude + degrees(Δλ)
        var wraps = false
        if minLongitude < -180 {
            minLongitude += 360
            wraps = true
        }
        if maxLongitude > 180 {
            maxLongitude -= 360
            wraps = true
        }
        return BoundingBox(
            minLatitude: degrees(minLatitude), maxLatitude: degrees(maxLatitude),
            minLongitude: minLongitude, maxLongitude: maxLongitude, crossesAntimeridian: wraps)
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
