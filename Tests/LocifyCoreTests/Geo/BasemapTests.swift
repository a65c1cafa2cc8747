import XCTest

@testable import LocifyCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

final class BasemapTests: XCTestCase {
    let basemap = Basemap.bundled
    let zurich = Coordinate(latitude: 47.37, longitude: 8.54)

    func testATileIsWellFormedSVGInEitherPalette() throws {
        let tile = Tile(containing: zurich, zoom: 5)
        let light = basemap.tile(tile)
        XCTAssertTrue(
            light.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">"#)
        )
        XCTAssertTrue(XMLParser(data: Data(light.utf8)).parse(), "well-formed XML")
        XCTAssertTrue(light.contains(Basemap.Palette.light.sea))
        XCTAssertTrue(light.contains(Basemap.Palette.light.land))
        XCTAssertTrue(light.contains(">Zürich</text>"))
        let dark = basemap.tile(tile, palette: .dark)
        XCTAssertTrue(dark.contains(Basemap.Palette.dark.sea))
        XCTAssertFalse(dark.contains(Basemap.Palette.light.land))
    }

    func testDeepTilesCarryOnlyTheOutlinesOnThem() throws {
        // Inside a country, zoom 16: the land is the tile itself, not the country's thousands of points.
        let inland = basemap.tile(Tile(containing: zurich, zoom: 16))
        XCTAssertLessThan(inland.utf8.count, 2_000, inland)
        XCTAssertTrue(inland.contains(Basemap.Palette.light.land))
        // On a coast, the outline is cut at the tile's edges, its margin included.
        let coast = basemap.tile(Tile(containing: Coordinate(latitude: 43.29, longitude: 5.36), zoom: 12))
        let path = try XCTUnwrap(coast.range(of: #"d="[^"]*""#, options: .regularExpression).map { coast[$0] })
        let numbers = path.dropFirst(3).dropLast().split(whereSeparator: { "MLZ ".contains($0) }).compactMap {
            Double($0)
        }
        XCTAssertFalse(numbers.isEmpty)
        XCTAssertTrue(
            numbers.allSatisfy { (-8.0...264.0).contains($0) }, "\(numbers.filter { !(-8.0...264.0).contains($0) })")
        XCTAssertEqual(Basemap.clipped([(-100, -100), (500, -100), (500, 500), (-100, 500)]).count, 4)
        XCTAssertTrue(Basemap.clipped([(300, 300), (400, 300), (400, 400)]).isEmpty, "a ring off the tile goes")
    }

    func testOpenSeaHasNoLandAndNoCities() {
        let pacific = Tile(containing: Coordinate(latitude: -30, longitude: -140), zoom: 6)
        let svg = basemap.tile(pacific)
        XCTAssertFalse(svg.contains("<path"))
        XCTAssertFalse(svg.contains("<text"))
    }

    func labelBoxes(_ tile: Tile) -> [Int: (Double, Double, Double, Double)] {
        let scale = 256.0 * Double(1 << tile.zoom)
        var boxes: [Int: (Double, Double, Double, Double)] = [:]
        for place in basemap.labelledCities(near: tile) {
            let φ = place.coordinate.latitude * .pi / 180
            let x = (place.coordinate.longitude + 180) / 360 * scale
            let y = (1 - asinh(tan(φ)) / .pi) / 2 * scale
            boxes[place.geonameID] = (x - 3, y - 11, x + 8 + Double(place.name.count) * 11 * 0.6, y + 6)
        }
        return boxes
    }

    func testLabelsNeverOverlap() {
        for zoom in [3, 5, 7, 9] {
            let boxes = Array(labelBoxes(Tile(containing: zurich, zoom: zoom)).values)
            XCTAssertFalse(boxes.isEmpty, "zoom \(zoom)")
            for i in boxes.indices {
                for j in boxes.indices where i < j {
                    XCTAssertFalse(Basemap.overlaps(boxes[i], boxes[j]), "zoom \(zoom): labels \(i) and \(j) overlap")
                }
            }
        }
    }

    func testNeighbouringTilesAgreeAboutLabelsOnTheirEdge() throws {
        for zoom in [4, 6, 8] {
            let left = Tile(containing: zurich, zoom: zoom)
            let right = try XCTUnwrap(Tile(zoom: zoom, x: left.x + 1, y: left.y))
            let edge = Double(right.x) * 256
            func crossing(_ boxes: [Int: (Double, Double, Double, Double)]) -> Set<Int> {
                Set(
                    boxes.filter {
                        $0.value.0 < edge && $0.value.2 > edge && $0.value.3 > Double(left.y) * 256
                            && $0.value.1 < Double(left.y + 1) * 256
                    }.keys)
            }
            XCTAssertEqual(crossing(labelBoxes(left)), crossing(labelBoxes(right)), "zoom \(zoom)")
        }
    }

    func testMoreCitiesAppearCloserIn() {
        let far = basemap.labelledCities(near: Tile(containing: zurich, zoom: 3)).count
        let near = basemap.labelledCities(near: Tile(containing: zurich, zoom: 8)).count
        XCTAssertGreaterThan(near, 0)
        XCTAssertGreaterThan(Basemap.minimumPopulation(atZoom: 3), Basemap.minimumPopulation(atZoom: 8))
        XCTAssertTrue(
            basemap.labelledCities(near: Tile(containing: zurich, zoom: 3)).allSatisfy { $0.population >= 1_500_000 })
        XCTAssertGreaterThan(far, 0)
    }

    /// A view (a phone's 3 × 3 tiles) over a city, a coast and a suburb at every zoom: land drawn, and at least
    /// one named place (a country's capital far out, a city's districts close in), never an empty beige box.
    func testEveryZoomShowsLandAndNamedPlacesWherePeopleLive() {
        let views = [
            "Berlin Mitte": Coordinate(latitude: 52.5200, longitude: 13.4050),
            "Lyon, rue Mercière": Coordinate(latitude: 45.7623, longitude: 4.8318),
            "Marseille's Old Port": Coordinate(latitude: 43.2951, longitude: 5.3740),
            "Bengaluru, Church Street": Coordinate(latitude: 12.9753, longitude: 77.6046),
            "Brooklyn, Park Slope": Coordinate(latitude: 40.6710, longitude: -73.9814),
        ]
        for (name, point) in views {
            for zoom in 2...18 {
                let centre = Tile(containing: point, zoom: zoom)
                let around = (-1...1).flatMap { dx in
                    (-1...1).compactMap { dy in Tile(zoom: zoom, x: centre.x + dx, y: centre.y + dy) }
                }
                XCTAssertTrue(basemap.tile(centre).contains("<path d=\"M"), "\(name), zoom \(zoom): land")
                let named = Set(
                    around.flatMap { basemap.labelledCities(near: $0).map(\.name) }
                        + around.compactMap { basemap.areaLabel(for: $0)?.name })
                XCTAssertFalse(named.isEmpty, "\(name), zoom \(zoom): no place named in view")
                if zoom >= 15, let area = basemap.areaLabel(for: centre) ?? basemap.areaLabel(for: around[1]) {
                    XCTAssertTrue(
                        basemap.tile(basemap.areaLabel(for: centre) != nil ? centre : around[1]).contains(
                            ">\(XMLText.escape(area.name))</text>"), "\(name), zoom \(zoom): drawn")
                }
            }
        }
    }
}
