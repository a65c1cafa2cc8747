import Foundation

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
