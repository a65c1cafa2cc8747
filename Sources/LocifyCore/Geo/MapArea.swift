import Foundation

/// A box of the map (south-west to north-east corner, never across the 180° meridian).
public struct MapBox: Hashable, Sendable {
    public let south: Double
    public let west: Double
    public let north: Double
    public let east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    public var center: Coordinate { Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2) }

    /// Width and height in kilometres, measured through the box's middle.
    public var sizeInKilometres: (width: Double, height: Double) {
        let middle = (south + north) / 2
        let width = Geo.distance(
            Coordinate(latitude: middle, longitude: west), Coordinate(latitude: middle, longitude: east))
        let height = Geo.distance(
            Coordinate(latitude: south, longitude: west), Coordinate(latitude: north, longitude: west))
        return (width / 1000, height / 1000)
    }

    /// "10 × 8 km" (to a tenth under 10 km).
    public var sizeText: String {
        let size = sizeInKilometres
        func kilometres(_ value: Double) -> String {
            let tenths = (value * 10).rounded() / 10
            return tenths >= 10 || tenths == tenths.rounded() ? String(Int(tenths.rounded())) : String(tenths)
        }
        return "\(kilometres(size.width)) × \(kilometres(size.height)) km"
    }

    /// The columns and rows of the tiles at `zoom` that show some of the box (a tile only touching its
    /// edge does not).
    public func tileRange(zoom: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let last = (1 << zoom) - 1
        let northWest = Tile.worldPosition(of: Coordinate(latitude: north, longitude: west), zoom: zoom)
        let southEast = Tile.worldPosition(of: Coordinate(latitude: south, longitude: east), zoom: zoom)
        func span(_ low: Double, _ high: Double) -> ClosedRange<Int> {
            let first = min(max(Int(low.rounded(.down)), 0), last)
            let end = min(max(Int(high.rounded(.up)) - 1, first), last)
            return first...end
        }
        return (span(northWest.x, southEast.x), span(northWest.y, southEast.y))
    }
}

/// What a person asks to keep for offline use: a box and the deepest zoom, every zoom above it included
/// (so zooming out keeps working offline).
public struct MapAreaDraft: Equatable, Sendable {
    public var name: String?
    public var south: Double?
    public var west: Double?
    public var north: Double?
    public var east: Double?
    public var maximumZoom: Int?

    /// Deeper than this, the bundled basemap draws nothing new, and a raster area grows fourfold a zoom.
    public static let deepestZoom = 17
    /// An area holds at most this many tiles (about a 30 × 30 km city to zoom 16, or a region to zoom
    /// 12); a bigger box is kept to a shallower zoom.
    public static let maximumTiles = 10_000
    public static let maximumNameLength = 100

    public static let fieldLabels: [String: String] = [
        "name": "Name", "south": "South", "west": "West", "north": "North", "east": "East",
        "max_zoom": "Deepest zoom",
    ]

    public init(
        name: String? = nil, south: Double? = nil, west: Double? = nil, north: Double? = nil, east: Double? = nil,
        maximumZoom: Int? = nil
    ) {
        self.name = name
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        self.maximumZoom = maximumZoom
    }

    /// The box, the zoom (shallower than asked when the box is too big for it) and a name (the box's
    /// size when none was given), or every problem at once.
    public func validated(typeErrors: [FieldError] = []) throws(ValidationFailure) -> MapAreaPlan {
        var check = FieldChecker()
        for error in typeErrors { check.fail(error.field, error.message) }
        let failed = Set(typeErrors.map(\.field))
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        func required<Value>(_ value: Value?, _ field: String, valid: (Value) -> Bool, problem: String) -> Value? {
            guard let value else {
                if !failed.contains(field) { check.fail(field, "\(Self.fieldLabels[field] ?? field) is required.") }
                return nil
            }
            guard valid(value) else {
                check.fail(field, problem)
                return nil
            }
            return value
        }
        let latitudes = -Tile.maximumLatitude...Tile.maximumLatitude
        let latitudeProblem = "must be a latitude the map shows (−85.05…85.05)."
        let longitudeProblem = "must be a longitude (−180…180)."
        let south = required(south, "south", valid: latitudes.contains, problem: "South " + latitudeProblem)
        let north = required(north, "north", valid: latitudes.contains, problem: "North " + latitudeProblem)
        let west = required(west, "west", valid: Coordinate.isLongitude, problem: "West " + longitudeProblem)
        let east = required(east, "east", valid: Coordinate.isLongitude, problem: "East " + longitudeProblem)
        let zoom = required(
            maximumZoom, "max_zoom", valid: (0...Self.deepestZoom).contains,
            problem: "Deepest zoom must be a whole number from 0 to \(Self.deepestZoom).")
        guard let south, let north, let west, let east, let zoom, check.errors.isEmpty else {
            throw ValidationFailure(check.errors)
        }
        // Corners in either order make the same box; one across the 180° meridian is two areas.
        let box = MapBox(
            south: min(south, north), west: min(west, east), north: max(south, north), east: max(west, east))
        return MapAreaPlan(name: name, box: box, maximumZoom: MapAreaPlan.deepestZoom(of: box, within: zoom))
    }
}

/// A checked area: its tiles are those of the box at every zoom from 0 to `maximumZoom`.
public struct MapAreaPlan: Equatable, Sendable {
    public let name: String
    public let box: MapBox
    public let maximumZoom: Int

    public init(name: String?, box: MapBox, maximumZoom: Int) {
        self.box = box
        self.maximumZoom = maximumZoom
        self.name = name ?? Self.defaultName(box)
    }

    /// `zoom`, or the deepest zoom above it whose area keeps within `MapAreaDraft.maximumTiles`: a box
    /// too big for the zoom asked is kept less deep rather than refused (the whole world fits to zoom 6).
    public static func deepestZoom(of box: MapBox, within zoom: Int) -> Int {
        var total = 0
        for level in 0...zoom {
            let range = box.tileRange(zoom: level)
            total += range.columns.count * range.rows.count
            if total > MapAreaDraft.maximumTiles { return max(level - 1, 0) }
        }
        return zoom
    }

    /// "Area of 10 × 8 km".
    static func defaultName(_ box: MapBox) -> String {
        "Area of " + box.sizeText
    }

    public var tileCount: Int {
        (0...maximumZoom).reduce(0) { total, zoom in
            let range = box.tileRange(zoom: zoom)
            return total + range.columns.count * range.rows.count
        }
    }

    /// Every tile, zoom by zoom, row by row.
    public var tiles: [Tile] {
        (0...maximumZoom).flatMap { zoom -> [Tile] in
            let range = box.tileRange(zoom: zoom)
            return range.rows.flatMap { y in range.columns.compactMap { x in Tile(zoom: zoom, x: x, y: y) } }
        }
    }

    /// Whether `tile` is one of the area's.
    public func contains(_ tile: Tile) -> Bool {
        guard tile.zoom <= maximumZoom else { return false }
        let range = box.tileRange(zoom: tile.zoom)
        return range.columns.contains(tile.x) && range.rows.contains(tile.y)
    }
}

/// Where an area's tiles come from (the administrator's choice, see the server's configuration).
public enum MapTileSource: String, Sendable, CaseIterable {
    /// Locify's own basemap, drawn as SVG.
    case basemap
    /// The configured tile server, whose policy allows offline download.
    case tileServer = "tile_server"
    /// The administrator's raster basemap file (MBTiles).
    case basemapFile = "basemap_file"
}

/// A saved area of one account.
public struct MapArea: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let plan: MapAreaPlan
    public let source: MapTileSource
    /// The archive's size once made; nil before its first download.
    public let byteCount: Int?
    public let createdAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, plan: MapAreaPlan, source: MapTileSource, byteCount: Int?, createdAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.plan = plan
        self.source = source
        self.byteCount = byteCount
        self.createdAt = createdAt
    }
}
