import Foundation

/// Distances and areas on the Earth's surface (a sphere of the mean radius: good to about 0.5 %).
public enum Geo {
    public static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres (haversine).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = radians(a.latitude), φ2 = radians(b.latitude)
        let Δφ = φ2 - φ1, Δλ = radians(b.longitude - a.longitude)
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

        public func contains(_ point: Coordinate) -> Bool {
            guard (minLatitude...maxLatitude).contains(point.latitude) else { return false }
            if crossesAntimeridian { return point.longitude >= minLongitude || point.longitude <= maxLongitude }
            return (minLongitude...maxLongitude).contains(point.longitude)
        }
    }

    public static func boundingBox(around center: Coordinate, radius meters: Double) -> BoundingBox {
        let angular = meters / earthRadiusMeters
        let latitude = radians(center.latitude)
        let minLatitude = latitude - angular, maxLatitude = latitude + angular
        if minLatitude <= -.pi / 2 || maxLatitude >= .pi / 2 {
            return BoundingBox(
                minLatitude: max(degrees(minLatitude), -90), maxLatitude: min(degrees(maxLatitude), 90),
                minLongitude: -180, maxLongitude: 180, crossesAntimeridian: false)
        }
        let Δλ = asin(min(1, sin(angular) / cos(latitude)))
        var minLongitude = center.longitude - degrees(Δλ)
        var maxLongitude = center.longitude + degrees(Δλ)
        var wraps = false
        if minLongitude < -180 { minLongitude += 360; wraps = true }
        if maxLongitude > 180 { maxLongitude -= 360; wraps = true }
        return BoundingBox(
            minLatitude: degrees(minLatitude), maxLatitude: degrees(maxLatitude),
            minLongitude: minLongitude, maxLongitude: maxLongitude, crossesAntimeridian: wraps)
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}

/// One XYZ (Web Mercator, 256 px) map tile.
public struct Tile: Hashable, Sendable, CustomStringConvertible {
    public let zoom: Int
    public let x: Int
    public let y: Int

    public static let maximumLatitude = 85.0511287798

    public init?(zoom: Int, x: Int, y: Int) {
        let count = 1 << max(0, min(zoom, 30))
        guard (0...30).contains(zoom), (0..<count).contains(x), (0..<count).contains(y) else { return nil }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The tile holding `coordinate` at `zoom` (latitude clamped to Web Mercator's ±85.0511°).
    public init(containing coordinate: Coordinate, zoom: Int) {
        let z = max(0, min(zoom, 30))
        let n = 1 << z
        let longitude = coordinate.longitude.truncatingRemainder(dividingBy: 360)
        let wrapped = longitude >= 180 ? longitude - 360 : (longitude < -180 ? longitude + 360 : longitude)
        let world = Self.worldPosition(of: Coordinate(latitude: coordinate.latitude, longitude: wrapped), zoom: z)
        self.zoom = z
        self.x = min(max(Int(world.x.rounded(.down)), 0), n - 1)
        self.y = min(max(Int(world.y.rounded(.down)), 0), n - 1)
    }

    /// Web Mercator: the position of `coordinate` in tile units at `zoom` (0…2^zoom on each axis),
    /// latitude clamped to ±85.0511°. The one place the projection is written.
    public static func worldPosition(of coordinate: Coordinate, zoom: Int) -> (x: Double, y: Double) {
        let n = Double(1 << zoom)
        let latitude = Geo.radians(max(-maximumLatitude, min(maximumLatitude, coordinate.latitude)))
        return ((coordinate.longitude + 180) / 360 * n, (1 - asinh(tan(latitude)) / .pi) / 2 * n)
    }

    /// The north-west corner of the tile.
    public var northWest: Coordinate { Self.coordinate(x: Double(x), y: Double(y), zoom: zoom) }
    /// The south-east corner of the tile.
    public var southEast: Coordinate { Self.coordinate(x: Double(x + 1), y: Double(y + 1), zoom: zoom) }

    /// The coordinate at fractional tile position (x, y): the inverse of `init(containing:zoom:)`.
    public static func coordinate(x: Double, y: Double, zoom: Int) -> Coordinate {
        let n = Double(1 << zoom)
        let longitude = x / n * 360 - 180
        let latitude = Geo.degrees(atan(sinh(.pi * (1 - 2 * y / n))))
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Pixel position (0–256) of `coordinate` within this tile; outside the range when off the tile.
    public func pixel(for coordinate: Coordinate) -> (x: Double, y: Double) {
        let world = Self.worldPosition(of: coordinate, zoom: zoom)
        return ((world.x - Double(x)) * 256, (world.y - Double(y)) * 256)
    }

    public var description: String { "\(zoom)/\(x)/\(y)" }
}
