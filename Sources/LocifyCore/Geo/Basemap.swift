import Foundation

/// The server's own map: SVG tiles drawn from Natural Earth's country outlines and the gazetteer's
/// cities, so a map shows even when no tile server can be reached.
public struct Basemap: Sendable {
    public struct Palette: Sendable, Equatable {
        public let sea: String, land: String, border: String, city: String, text: String, halo: String

        public static let light = Palette(
            sea: "#aad3df", land: "#f2efe9", border: "#9e8e9e", city: "#3b3b3b", text: "#1f1f1f", halo: "#ffffff")
        public static let dark = Palette(
            sea: "#15202b", land: "#2a2f37", border: "#5b6470", city: "#d9dde3", text: "#e8ebef", halo: "#0d1117")
    }

    struct Country: Sendable {
        let name: String
        /// Rings of (longitude, latitude).
        let rings: [[(Double, Double)]]
        let minLongitude: Double, maxLongitude: Double, minLatitude: Double, maxLatitude: Double
    }

    let countries: [Country]
    let gazetteer: @Sendable () -> Gazetteer

    /// Parses a GeoJSON FeatureCollection of Polygons and MultiPolygons.
    public init(countriesGeoJSON data: Data, gazetteer: @escaping @Sendable () -> Gazetteer = { Gazetteer.bundled })
        throws
    {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let features = root["features"] as? [[String: Any]]
        else {
            throw FormatProblem(reason: "the country outlines are not a GeoJSON FeatureCollection")
        }
        var countries: [Country] = []
        for feature in features {
            let geometry = feature["geometry"] as? [String: Any]
            let polygons: [[[Any]]]
            switch geometry?["type"] as? String {
            case "Polygon": polygons = [(geometry?["coordinates"] as? [[Any]]) ?? []]
            case "MultiPolygon": polygons = (geometry?["coordinates"] as? [[[Any]]]) ?? []
            default: continue
            }
            let rings: [[(Double, Double)]] = polygons.flatMap { polygon in
                polygon.map { ring in
                    (ring as? [[Double]] ?? []).compactMap { $0.count >= 2 ? ($0[0], $0[1]) : nil }
                }
            }.filter { $0.count >= 3 }
            let points = rings.flatMap { $0 }
            guard !points.isEmpty else { continue }
            countries.append(
                Country(
                    name: (feature["properties"] as? [String: Any])?["name"] as? String ?? "",
                    rings: rings, minLongitude: points.map(\.0).min() ?? 0, maxLongitude: points.map(\.0).max() ?? 0,
                    minLatitude: points.map(\.1).min() ?? 0, maxLatitude: points.map(\.1).max() ?? 0))
        }
        self.countries = countries
        self.gazetteer = gazetteer
    }

    /// The basemap from the bundled Natural Earth outlines and GeoNames cities.
    public static let bundled: Basemap = {
        do {
            return try Basemap(countriesGeoJSON: BundledResource.countriesGeoJSON())
        } catch {
            preconditionFailure("the bundled basemap cannot be read: \(error)")
        }
    }()

    /// The smallest population labelled at `zoom`: capitals of the world far out, towns close in.
    public static func minimumPopulation(atZoom zoom: Int) -> Int {
        switch zoom {
        case ...1: 8_000_000
        case 2: 4_000_000
        case 3: 1_500_000
        case 4: 700_000
        case 5: 300_000
        case 6: 120_000
        case 7: 50_000
        case 8: 20_000
        case 9: 8_000
        default: 1_000
        }
    }

    static let fontSize = 11.0
    static let tileSize = 256.0

    /// A 256×256 SVG tile.
    public func tile(_ tile: Tile, palette: Palette = .light) -> String {
        func project(_ longitude: Double, _ latitude: Double) -> (Double, Double) {
            tile.pixel(for: Coordinate(latitude: latitude, longitude: longitude))
        }
        let northWest = tile.northWest
        let southEast = tile.southEast
        // A little margin so strokes and labels that cross the edge are drawn on both sides.
        let marginDegrees = 360 / Double(1 << tile.zoom) * 0.1
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">\
            <rect width="256" height="256" fill="\(palette.sea)"/>
            """
        var land = ""
        for country in countries
        where country.maxLongitude >= northWest.longitude - marginDegrees
            && country.minLongitude <= southEast.longitude + marginDegrees
            && country.maxLatitude >= southEast.latitude - marginDegrees
            && country.minLatitude <= northWest.latitude + marginDegrees
        {
            for ring in country.rings {
                let clipped = Self.clipped(ring.map { project($0.0, $0.1) })
                guard clipped.count >= 3 else { continue }
                land += "M"
                for (index, (x, y)) in clipped.enumerated() {
                    land += (index == 0 ? "" : "L") + Self.number(x) + " " + Self.number(y)
                }
                land += "Z"
            }
        }
        if !land.isEmpty {
            svg +=
                "<path d=\"\(land)\" fill=\"\(palette.land)\" stroke=\"\(palette.border)\" stroke-width=\"0.6\" stroke-linejoin=\"round\"/>"
        }
        let labelled = labelledCities(near: tile)
        if labelled.isEmpty, let area = areaLabel(for: tile) {
            // Muted and centred: the name of where the view is, not a point on it.
            svg +=
                "<text x=\"128\" y=\"132\" text-anchor=\"middle\" font-family=\"system-ui, sans-serif\" font-size=\"13\" "
                + "font-style=\"italic\" fill=\"\(palette.text)\" fill-opacity=\"0.6\" stroke=\"\(palette.halo)\" stroke-width=\"3\" "
                + "paint-order=\"stroke\">" + XMLText.escape(area.name) + "</text>"
        }
        for city in labelled {
            let (x, y) = project(city.coordinate.longitude, city.coordinate.latitude)
            svg += "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"2.5\" fill=\"\(palette.city)\"/>"
            svg +=
                "<text x=\"\(Self.number(x + 5))\" y=\"\(Self.number(y + 4))\" font-family=\"system-ui, sans-serif\" font-size=\"\(Int(Self.fontSize))\" "
                + "fill=\"\(palette.text)\" stroke=\"\(palette.halo)\" stroke-width=\"3\" paint-order=\"stroke\" stroke-linejoin=\"round\">"
                + XMLText.escape(city.name) + "</text>"
        }
        return svg + "</svg>"
    }

    /// From this zoom in, a tile no city's label reaches may carry its neighbourhood's name instead.
    static let areaLabelZoom = 14

    /// Deep in, where the nearest town or district can be farther than the view is wide, every other tile (a
    /// checkerboard, so names do not crowd) with no label of its own names the place nearest its centre within
    /// about 10 km: a street-level view over the basemap still says where it is.
    func areaLabel(for tile: Tile) -> GazetteerPlace? {
        guard tile.zoom >= Self.areaLabelZoom, (tile.x + tile.y) % 2 == 0 else { return nil }
        let northWest = tile.northWest
        let southEast = tile.southEast
        let centre = Coordinate(
            latitude: (northWest.latitude + southEast.latitude) / 2,
            longitude: (northWest.longitude + southEast.longitude) / 2)
        let reach = 0.1
        let nearby = gazetteer().places(
            inLatitude: (centre.latitude - reach)...(centre.latitude + reach),
            longitude: (centre.longitude - reach)...(centre.longitude + reach), minimumPopulation: 1_000)
        let scale = cos(centre.latitude * .pi / 180)
        func distance(_ place: GazetteerPlace) -> Double {
            hypot(place.coordinate.latitude - centre.latitude, (place.coordinate.longitude - centre.longitude) * scale)
        }
        return nearby.filter { distance($0) <= reach }.min {
            (distance($0), $0.geonameID) < (distance($1), $1.geonameID)
        }
    }

    /// The cities labelled on `tile` and around it. The rule looks only at the cities themselves, never
    /// at the tile: a city is labelled when it is big enough for the zoom and no bigger candidate's label
    /// box overlaps its own. So neighbouring tiles agree, and labels never overlap.
    func labelledCities(near tile: Tile) -> [GazetteerPlace] {
        let minimum = Self.minimumPopulation(atZoom: tile.zoom)
        let scale = Self.tileSize * Double(1 << tile.zoom)
        // Candidates within two label widths of the tile: enough to decide every label that reaches it.
        let reach = 2 * 220 / scale * 360
        let northWest = tile.northWest
        let southEast = tile.southEast
        let gazetteer = gazetteer()
        let candidates = gazetteer.places(
            inLatitude: (southEast.latitude - reach)...(northWest.latitude + reach),
            longitude: (northWest.longitude - reach)...(southEast.longitude + reach), minimumPopulation: minimum)
        func box(_ place: GazetteerPlace) -> (Double, Double, Double, Double) {
            let world = Tile.worldPosition(of: place.coordinate, zoom: tile.zoom)
            let x = world.x * Self.tileSize
            let y = world.y * Self.tileSize
            let width = 8 + Double(place.name.count) * Self.fontSize * 0.6
            return (x - 3, y - Self.fontSize, x + width, y + 6)
        }
        let ordered = candidates.sorted { ($0.population, $1.geonameID) > ($1.population, $0.geonameID) }
        let boxes = ordered.map(box)
        var shown: [GazetteerPlace] = []
        let tileBox = (
            Double(tile.x) * Self.tileSize - 220, Double(tile.y) * Self.tileSize - 20,
            Double(tile.x + 1) * Self.tileSize + 20, Double(tile.y + 1) * Self.tileSize + 20
        )
        for (index, place) in ordered.enumerated() {
            let mine = boxes[index]
            guard Self.overlaps(mine, tileBox) else { continue }
            let blocked = boxes[..<index].contains { Self.overlaps($0, mine) }
            if !blocked { shown.append(place) }
        }
        return shown
    }

    /// Beyond the tile's edges by this many pixels, outlines are cut: the cut edges, stroked too, stay
    /// out of sight.
    static let clipMargin = 8.0

    /// The ring (in the tile's pixels) cut to the tile and its margin (Sutherland–Hodgman, one edge at
    /// a time): deep in, a country's whole outline would be drawn, thousands of points far off the tile
    /// (15 KB of a zoom-16 tile, where the cut one is a few hundred bytes).
    static func clipped(_ ring: [(Double, Double)]) -> [(Double, Double)] {
        var points = ring
        // The left and right edges, then (coordinates swapped) the top and bottom ones.
        for axis in 0..<2 {
            for (limit, keepsAbove) in [(-clipMargin, true), (tileSize + clipMargin, false)] {
                guard !points.isEmpty else { return [] }
                let swapped = axis == 1 ? points.map { ($0.1, $0.0) } : points
                func isInside(_ point: (Double, Double)) -> Bool { keepsAbove ? point.0 >= limit : point.0 <= limit }
                var kept: [(Double, Double)] = []
                kept.reserveCapacity(swapped.count + 4)
                var previous = swapped[swapped.count - 1]
                for point in swapped {
                    let inside = isInside(point)
                    if inside != isInside(previous) {
                        let share = (limit - previous.0) / (point.0 - previous.0)
                        kept.append((limit, previous.1 + (point.1 - previous.1) * share))
                    }
                    if inside { kept.append(point) }
                    previous = point
                }
                points = axis == 1 ? kept.map { ($0.1, $0.0) } : kept
            }
        }
        return points
    }

    static func overlaps(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Bool {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension Gazetteer {
    /// Places with at least `minimumPopulation` inside a latitude/longitude box, from the 1° grid.
    func places(
        inLatitude latitudes: ClosedRange<Double>, longitude longitudes: ClosedRange<Double>, minimumPopulation: Int
    ) -> [GazetteerPlace] {
        var result: [GazetteerPlace] = []
        let rows = Self.row(latitudes.lowerBound)...Self.row(latitudes.upperBound)
        let firstColumn = Int((longitudes.lowerBound + 180).rounded(.down))
        let lastColumn = Int((longitudes.upperBound + 180).rounded(.down))
        let columns =
            lastColumn - firstColumn >= Self.gridColumns ? 0...(Self.gridColumns - 1) : firstColumn...lastColumn
        for row in rows {
            for rawColumn in columns {
                let column = ((rawColumn % Self.gridColumns) + Self.gridColumns) % Self.gridColumns
                for index in cell(row: row, column: column) where population(Int(index)) >= minimumPopulation {
                    result.append(place(Int(index)))
                }
            }
        }
        return result
    }
}
