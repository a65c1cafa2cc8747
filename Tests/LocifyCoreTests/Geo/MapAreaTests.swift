import XCTest

@testable import LocifyCore

final class MapAreaTests: XCTestCase {
    /// About 10 × 10 km around Zürich's centre.
    let zurich = MapAreaDraft(south: 47.3251, west: 8.4737, north: 47.4149, east: 8.6063, maximumZoom: 16)

    func testAnAreaHoldsEveryZoomsTilesOfItsBoxAndNoOthers() throws {
        let plan = try zurich.validated()
        XCTAssertEqual(plan.name, "Area of 10 × 10 km")
        let tiles = plan.tiles
        XCTAssertEqual(tiles.count, plan.tileCount)
        XCTAssertEqual(Set(tiles).count, tiles.count, "each tile once")
        XCTAssertEqual(Set(tiles.map(\.zoom)), Set(0...16))
        XCTAssertEqual(tiles.filter { $0.zoom == 0 }.count, 1)
        // 10 km is 24.2 tiles of zoom 16 at this latitude: 25 or 26 columns and rows.
        let deepest = tiles.filter { $0.zoom == 16 }
        XCTAssertTrue((625...676).contains(deepest.count), "\(deepest.count)")
        for tile in tiles {
            XCTAssertTrue(plan.contains(tile))
            // Each tile shows some of the box.
            XCTAssertLessThan(tile.southEast.latitude, plan.box.north)
            XCTAssertGreaterThan(tile.northWest.latitude, plan.box.south)
            XCTAssertLessThan(tile.northWest.longitude, plan.box.east)
            XCTAssertGreaterThan(tile.southEast.longitude, plan.box.west)
        }
        let outside = Tile(containing: Coordinate(latitude: 47.43, longitude: 8.54), zoom: 16)
        XCTAssertFalse(plan.contains(outside))
        XCTAssertFalse(plan.contains(Tile(containing: plan.box.center, zoom: 17)))
    }

    func testABoxOnATilesEdgesTakesThatTileOnly() throws {
        let tile = try XCTUnwrap(Tile(zoom: 12, x: 2138, y: 1434))
        let box = MapBox(
            south: tile.southEast.latitude, west: tile.northWest.longitude, north: tile.northWest.latitude,
            east: tile.southEast.longitude)
        XCTAssertEqual(box.tileRange(zoom: 12).columns, 2138...2138)
        XCTAssertEqual(box.tileRange(zoom: 12).rows, 1434...1434)
        XCTAssertEqual(box.tileRange(zoom: 13).columns.count, 2)
    }

    func testBadAreasAreRefusedWithEveryReason() {
        XCTAssertThrowsError(try MapAreaDraft().validated()) { error in
            let fields = (error as? ValidationFailure)?.errors.map(\.field) ?? []
            XCTAssertEqual(Set(fields), ["south", "west", "north", "east", "max_zoom"])
        }
        var badZoom = zurich
        badZoom.maximumZoom = 18
        XCTAssertThrowsError(try badZoom.validated()) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.messages, ["Deepest zoom must be a whole number from 0 to 17."])
        }
        var pole = zurich
        pole.north = 89
        pole.west = 181
        XCTAssertThrowsError(try pole.validated()) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.messages,
                ["North must be a latitude the map shows (−85.05…85.05).", "West must be a longitude (−180…180)."])
        }
    }

    func testCornersInEitherOrderMakeOneBoxAndABigBoxIsKeptLessDeep() throws {
        var upsideDown = zurich
        (upsideDown.south, upsideDown.north) = (zurich.north, zurich.south)
        (upsideDown.west, upsideDown.east) = (zurich.east, zurich.west)
        XCTAssertEqual(try upsideDown.validated(), try zurich.validated())

        var country = zurich
        country.south = 45.8
        country.west = 5.9
        country.north = 47.8
        country.east = 10.5
        let switzerland = try country.validated()
        XCTAssertEqual(switzerland.maximumZoom, 13, "zoom 14 would pass the tile limit")
        XCTAssertLessThanOrEqual(switzerland.tileCount, MapAreaDraft.maximumTiles)
        XCTAssertGreaterThan(
            MapAreaPlan(name: nil, box: switzerland.box, maximumZoom: 14).tileCount, MapAreaDraft.maximumTiles)
        let world = MapBox(south: -85, west: -180, north: 85, east: 180)
        XCTAssertEqual(MapAreaPlan.deepestZoom(of: world, within: 17), 6)
    }

    func testTileIDsFollowTheHilbertCurveZoomByZoom() throws {
        let expected: [(Int, Int, Int, UInt64)] = [
            (0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5),
        ]
        for (zoom, x, y, id) in expected {
            let tile = try XCTUnwrap(Tile(zoom: zoom, x: x, y: y))
            XCTAssertEqual(PMTiles.tileID(tile), id, "\(tile)")
            XCTAssertEqual(PMTiles.tile(id: id), tile)
        }
        for zoom in [3, 9, 16, 22] {
            for _ in 0..<50 {
                let size = 1 << zoom
                let tile = try XCTUnwrap(Tile(zoom: zoom, x: Int.random(in: 0..<size), y: Int.random(in: 0..<size)))
                XCTAssertEqual(PMTiles.tile(id: PMTiles.tileID(tile)), tile)
            }
        }
    }

    func testAnArchiveGivesBackEachTileItWasGiven() throws {
        let plan = try zurich.validated()
        // More tiles than a root directory holds, so leaves are written; the sea's tiles are identical.
        let tiles = plan.tiles.map { tile in
            (tile: tile, bytes: Data((tile.x % 3 == 0 ? "sea" : "tile \(tile)").utf8))
        }
        let data = PMTiles.archive(of: tiles, type: .unknown, box: plan.box, metadata: ["name": "Zürich"])
        XCTAssertEqual(String(decoding: data.prefix(7), as: UTF8.self), "PMTiles")
        let archive = try PMTiles.Archive(data)
        XCTAssertEqual(archive.minimumZoom, 0)
        XCTAssertEqual(archive.maximumZoom, 16)
        XCTAssertEqual(archive.box.south, plan.box.south, accuracy: 1e-7)
        XCTAssertEqual(archive.box.east, plan.box.east, accuracy: 1e-7)
        for (tile, bytes) in tiles { XCTAssertEqual(try archive.bytes(of: tile), bytes, "\(tile)") }
        XCTAssertEqual(Set(try archive.allTiles()), Set(plan.tiles))
        XCTAssertNil(try archive.bytes(of: Tile(containing: Coordinate(latitude: 0, longitude: 0), zoom: 16)))
        let smaller = PMTiles.archive(of: Array(tiles.prefix(20)), type: .png, box: plan.box)
        XCTAssertEqual(try PMTiles.Archive(smaller).tileType, .png)
        XCTAssertThrowsError(try PMTiles.Archive(Data("not an archive".utf8)))
    }
}
