import Foundation
import LocifyCore

/// The areas of the map each account keeps for offline use (the tiles themselves are on the devices,
/// and in an archive made on demand).
enum MapAreasTable: StoredTable {
    static let name = "map_areas"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case name
        case south
        case west
        case north
        case east
        case maximumZoom = "max_zoom"
        case source
        /// The archive's size, once it was made.
        case byteCount = "byte_count"
        case createdAt = "created_at"
    }

    static let areaColumns = selection([
        .id, .uuid, .owner, .name, .south, .west, .north, .east, .maximumZoom, .source, .byteCount, .createdAt,
    ])

    static func area(from row: PlainRow) throws -> MapArea {
        let box = MapBox(
            south: try row.requiredDouble(4), west: try row.requiredDouble(5), north: try row.requiredDouble(6),
            east: try row.requiredDouble(7))
        return MapArea(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            plan: MapAreaPlan(name: try row.requiredText(3), box: box, maximumZoom: try row.requiredInteger(8)),
            source: MapTileSource(rawValue: try row.requiredText(9)) ?? .basemap, byteCount: try row.integer(10),
            createdAt: try row.requiredDate(11))
    }
}
