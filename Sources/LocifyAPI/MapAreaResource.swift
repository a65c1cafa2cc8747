import Foundation
import LocifyCore

/// An area of the map kept for offline use: its box, its deepest zoom, where its tiles come from, the
/// address each tile is kept under on a device (`tile_path`, with `{z}`, `{x}`, `{y}`) and its archive.
public struct MapAreaResource: Codable, Sendable, Equatable {
    public var id: String
    public var object = "map_area"
    public var name: String
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double
    public var maxZoom: Int
    public var tileCount: Int
    public var source: String
    public var tilePath: String
    /// The archive's size once made (its first download); until then, `estimated_bytes` says.
    @Nullable public var bytes: Int?
    public var estimatedBytes: Int
    public var pmtilesURL: String
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name, south, west, north, east
        case maxZoom = "max_zoom"
        case tileCount = "tile_count"
        case source
        case tilePath = "tile_path"
        case bytes
        case estimatedBytes = "estimated_bytes"
        case pmtilesURL = "pmtiles_url"
        case createdAt = "created_at"
    }

    public init(_ area: MapArea, tilePath: String, estimatedBytes: Int, pmtilesURL: String) {
        id = area.uuid.lowercasedText
        name = area.plan.name
        south = area.plan.box.south
        west = area.plan.box.west
        north = area.plan.box.north
        east = area.plan.box.east
        maxZoom = area.plan.maximumZoom
        tileCount = area.plan.tileCount
        source = area.source.rawValue
        self.tilePath = tilePath
        bytes = area.byteCount
        self.estimatedBytes = estimatedBytes
        self.pmtilesURL = pmtilesURL
        createdAt = Timestamp.string(area.createdAt)
    }
}

/// What an area would take before it is saved (`POST /api/map-areas/estimate`): to `max_zoom`, the zoom
/// asked for or, for a box too big for it, the deepest that keeps within `max_tiles`.
public struct MapAreaEstimateResource: Codable, Sendable, Equatable {
    public var maxZoom: Int
    public var tileCount: Int
    public var estimatedBytes: Int
    public var source: String
    public var maxTiles: Int

    enum CodingKeys: String, CodingKey {
        case maxZoom = "max_zoom"
        case tileCount = "tile_count"
        case estimatedBytes = "estimated_bytes"
        case source
        case maxTiles = "max_tiles"
    }

    public init(_ plan: MapAreaPlan, estimatedBytes: Int, source: MapTileSource) {
        maxZoom = plan.maximumZoom
        tileCount = plan.tileCount
        self.estimatedBytes = estimatedBytes
        self.source = source.rawValue
        maxTiles = MapAreaDraft.maximumTiles
    }
}

/// `{"deleted": true, "id": "…"}`: an area is named by its uuid.
public struct MapAreaDeletedResource: Codable, Sendable, Equatable {
    public var deleted = true
    public var id: String

    public init(id: UUID) {
        self.id = id.lowercasedText
    }
}

/// The body of `POST /api/map-areas` and its estimate: `name`, `south`, `west`, `north`, `east`, `max_zoom`.
public struct MapAreaInput: Decodable, Sendable {
    public private(set) var draft = MapAreaDraft()
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: MapAreaDraft) {
        self.draft = draft
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(
            container: try decoder.container(keyedBy: LenientKey.self), labels: MapAreaDraft.fieldLabels)
        draft.name = reader.string("name")
        draft.south = reader.number("south")
        draft.west = reader.number("west")
        draft.north = reader.number("north")
        draft.east = reader.number("east")
        draft.maximumZoom = reader.integer("max_zoom")
        typeErrors = reader.errors
    }
}
