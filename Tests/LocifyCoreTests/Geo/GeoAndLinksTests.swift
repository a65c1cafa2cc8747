import Foundation
import XCTest

@testable import LocifyCore

final class GeoAndLinksTests: XCTestCase {
    let zurich = Coordinate(latitude: 47.376887, longitude: 8.541694)
    let paris = Coordinate(latitude: 48.856613, longitude: 2.352222)

    func testGreatCircleDistance() {
        XCTAssertEqual(Geo.distance(zurich, paris) / 1000, 488.9, accuracy: 1.5)
        XCTAssertEqual(Geo.distance(zurich, zurich), 0)
        let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
        let newYork = Coordinate(latitude: 40.7128, longitude: -74.0060)
        XCTAssertEqual(Geo.distance(london, newYork) / 1000, 5570, accuracy: 10)
        // Across the antimeridian: Fiji to Samoa is short, not half the world.
        XCTAssertLessThan(
            Geo.distance(Coordinate(latitude: -17.7, longitude: 178), Coordinate(latitude: -13.8, longitude: -172)),
            1_300_000)
    }

    func testBoundingBoxHoldsEveryPointOfTheRadius() {
        for center in [
            zurich, Coordinate(latitude: -33.9, longitude: 151.2), Coordinate(latitude: 10, longitude: 179.95),
            Coordinate(latitude: 89.9, longitude: 0),
        ] {
            let radius = 25_000.0
            let box = Geo.boundingBox(around: center, radius: radius)
            for bearing in stride(from: 0.0, to: 360, by: 15) {
                let point = destination(from: center, meters: radius * 0.999, bearing: bearing)
                XCTAssertTrue(box.contains(point), "\(center) bearing \(bearing) → \(point)")
            }
            XCTAssertFalse(
                box.contains(
                    Coordinate(
                        latitude: center.latitude > 0 ? center.latitude - 1 : center.latitude + 1,
                        longitude: center.longitude)))
        }
        XCTAssertTrue(
            Geo.boundingBox(around: Coordinate(latitude: 10, longitude: 179.95), radius: 25_000).crossesAntimeridian)
    }

    /// The point `meters` away along `bearing` (the direct geodesic problem on a sphere), for the test.
    func destination(from start: Coordinate, meters: Double, bearing: Double) -> Coordinate {
        let δ = meters / Geo.earthRadiusMeters
        let θ = bearing * .pi / 180
        let φ1 = start.latitude * .pi / 180
        let λ1 = start.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        var longitude = λ2 * 180 / .pi
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: longitude)
    }

    func testTileMathsBothWays() throws {
        XCTAssertEqual(Tile(containing: zurich, zoom: 0).description, "0/0/0")
        XCTAssertEqual(Tile(containing: zurich, zoom: 10).description, "10/536/358")
        XCTAssertEqual(
            Tile(containing: Coordinate(latitude: 89.9, longitude: -180), zoom: 3).description, "3/0/0",
            "latitude clamped")
        XCTAssertEqual(
            Tile(containing: Coordinate(latitude: -89.9, longitude: 180), zoom: 3).description, "3/0/7",
            "180° wraps to -180°")
        for zoom in [1, 5, 12, 18] {
            let tile = Tile(containing: paris, zoom: zoom)
            XCTAssertLessThanOrEqual(tile.northWest.longitude, paris.longitude)
            XCTAssertGreaterThan(tile.southEast.longitude, paris.longitude)
            XCTAssertGreaterThanOrEqual(tile.northWest.latitude, paris.latitude)
            XCTAssertLessThan(tile.southEast.latitude, paris.latitude)
            let pixel = tile.pixel(for: paris)
            XCTAssertTrue((0..<256).contains(pixel.x) && (0..<256).contains(pixel.y), "zoom \(zoom): \(pixel)")
            XCTAssertEqual(Tile(containing: tile.northWest, zoom: zoom), tile, "a tile's corner maps back to it")
        }
        XCTAssertEqual(Tile.coordinate(x: 0, y: 0, zoom: 0).latitude, Tile.maximumLatitude, accuracy: 1e-6)
        XCTAssertNil(Tile(zoom: 2, x: 4, y: 0))
        XCTAssertNotNil(Tile(zoom: 2, x: 3, y: 3))
    }

    func testMapLinks() {
        let pin = MapDestination.coordinate(zurich, label: "Anna Müller")
        XCTAssertEqual(MapLinks.show(pin, in: .geoLink), "geo:0,0?q=47.376887,8.541694(Anna%20M%C3%BCller)")
        XCTAssertEqual(MapLinks.show(.coordinate(zurich, label: nil), in: .geoLink), "geo:47.376887,8.541694")
        XCTAssertEqual(
            MapLinks.show(.address("10 Downing St, London"), in: .geoLink), "geo:0,0?q=10%20Downing%20St%2C%20London")
        XCTAssertEqual(
            MapLinks.show(pin, in: .appleMaps), "https://maps.apple.com/?ll=47.376887,8.541694&q=Anna%20M%C3%BCller")
        XCTAssertEqual(
            MapLinks.directions(to: pin, in: .appleMaps, mode: .walking),
            "https://maps.apple.com/?daddr=47.376887,8.541694&dirflg=w")
        XCTAssertEqual(
            MapLinks.directions(to: .address("Bern"), in: .appleMaps), "https://maps.apple.com/?daddr=Bern&dirflg=d")
        XCTAssertEqual(
            MapLinks.directions(to: pin, in: .googleMaps, mode: .cycling),
            "https://www.google.com/maps/dir/?api=1&destination=47.376887%2C8.541694&travelmode=bicycling")
        XCTAssertEqual(
            MapLinks.show(pin, in: .googleMaps), "https://www.google.com/maps/search/?api=1&query=47.376887%2C8.541694")
        XCTAssertEqual(
            MapLinks.show(pin, in: .openStreetMap, zoom: 17),
            "https://www.openstreetmap.org/?mlat=47.376887&mlon=8.541694#map=17/47.376887/8.541694")
        XCTAssertEqual(
            MapLinks.directions(to: pin, in: .openStreetMap),
            "https://www.openstreetmap.org/directions?engine=fossgis_osrm_car&route=%3B47.376887%2C8.541694")
        XCTAssertEqual(MapLinks.show(pin, in: .organicMaps), "om://map?v=1&ll=47.376887,8.541694&n=Anna%20M%C3%BCller")
        let unnamed = MapDestination.coordinate(zurich, label: nil)
        XCTAssertEqual(
            MapLinks.show(unnamed, in: .appleMaps),
            "https://maps.apple.com/?ll=47.376887,8.541694&q=47.376887%2C8.541694")
        XCTAssertEqual(MapLinks.show(unnamed, in: .organicMaps), "om://map?v=1&ll=47.376887,8.541694")
        XCTAssertEqual(MapLinks.show(.coordinate(zurich, label: ""), in: .geoLink), "geo:47.376887,8.541694")
        XCTAssertEqual(
            MapLinks.show(.address("Café de Flore"), in: .openStreetMap),
            "https://www.openstreetmap.org/search?query=Caf%C3%A9%20de%20Flore")
        XCTAssertEqual(MapLinks.show(.address("Bern"), in: .organicMaps), "om://search?query=Bern")
        XCTAssertEqual(MapLinks.Shown(.address("Bern")).osmAndLink(), nil, "OsmAnd's link takes no address")
        XCTAssertEqual(
            MapLinks.osmAnd(Coordinate(latitude: 1.5, longitude: -0.25)),
            "https://osmand.net/map?pin=1.5,-0.25#16/1.5/-0.25")
        XCTAssertEqual(MapLinks.number(-0.0000001), "0")
        let written = [-180, -33.8688, -0.000_001, 0, 0.05, 2.3522, 48.856_614_9, 179.999_999_6].map(MapLinks.number)
        XCTAssertEqual(written, ["-180", "-33.8688", "-0.000001", "0", "0.05", "2.3522", "48.856615", "180"])
        // Every millionth reads back as itself, as `%.6f` would write it.
        for millionths in stride(from: -180_000_000, through: 180_000_000, by: 7_777_777) {
            let value = Double(millionths) / 1_000_000
            XCTAssertEqual(Double(MapLinks.number(value)), value, "\(value)")
            XCTAssertEqual(MapLinks.number(value), Self.printfNumber(value))
        }
    }

    func testMapsAppsGetCoordinatesOnlyAtTheStreetOrBetterAndTheAddressTextOtherwise() {
        let berlin = Coordinate(latitude: 52.52437, longitude: 13.41053)
        let address = PostalAddress(
            label: "Home", street: "Unter den Linden 1", city: "Berlin", province: "BE", countryCode: "DE",
            coordinate: berlin)
        let lines = ["Unter den Linden 1", "10117 BERLIN", "Germany"]
        for precision in [CoordinatePrecision.manual, .building, .street] {
            XCTAssertEqual(
                address.mapDestination(lines: lines, precision: precision), .coordinate(berlin, label: "Home"))
            XCTAssertNil(address.approximateArea(precision: precision))
            XCTAssertNil(precision.radiusInMetres)
        }
        for precision in [CoordinatePrecision.city, .region, .country] {
            XCTAssertEqual(
                address.mapDestination(lines: lines, precision: precision),
                .address("Unter den Linden 1, 10117 BERLIN, Germany"), "\(precision)")
            XCTAssertNotNil(precision.radiusInMetres)
        }
        XCTAssertEqual(address.approximateArea(precision: .city), "around Berlin")
        XCTAssertEqual(address.approximateArea(precision: .region), "around BE")
        XCTAssertEqual(address.approximateArea(precision: .country), "around Germany")
        var noCity = address
        noCity.city = nil
        XCTAssertEqual(noCity.approximateArea(precision: .city), "around BE", "the next wider area says it")
        XCTAssertEqual(
            PostalAddress(city: "Oslo").mapDestination(lines: ["Oslo"], precision: nil), .address("Oslo"),
            "no position: the text")

        // A stored address: typed or picked positions are a person's (manual), geocoded ones the geocoder's.
        func stored(_ geocode: GeocodeState, coordinate: Coordinate? = berlin) -> ContactAddress {
            var placed = address
            placed.coordinate = coordinate
            return ContactAddress(
                id: 1, uuid: UUID(), ownerID: 1, contactID: 1, address: placed, geocode: geocode,
                createdAt: Date(), updatedAt: Date())
        }
        XCTAssertEqual(stored(.typedByUser).coordinatePrecision, .manual)
        XCTAssertEqual(stored(.notGeocoded).coordinatePrecision, .manual, "a card's or a file's position")
        XCTAssertEqual(
            stored(GeocodeState(status: .done, precision: .city, source: "gazetteer")).coordinatePrecision, .city)
        XCTAssertEqual(stored(GeocodeState(status: .done, precision: .region)).coordinatePrecision, .region)
        XCTAssertNil(stored(.pending, coordinate: nil).coordinatePrecision)
        XCTAssertEqual(
            stored(GeocodeState(status: .done, precision: .city)).approximateArea(), "around Berlin")
        // A search's hit: a contact's address placed only in its city goes to maps apps as its text.
        let roughHit = PlaceSearchHit(
            kind: .address, name: "Ada · Home", detail: "Unter den Linden 1, Berlin", coordinate: berlin,
            precision: .city)
        XCTAssertFalse(roughHit.isPrecise)
        XCTAssertEqual(roughHit.mapDestination, .address("Unter den Linden 1, Berlin"))
        let cityHit = PlaceSearchHit(kind: .geocoder, name: "Berlin", coordinate: berlin, precision: .city)
        XCTAssertEqual(cityHit.mapDestination, .coordinate(berlin, label: "Berlin"), "a city asked for is the city")
        XCTAssertEqual(NominatimResults.precision(of: "state"), .region)
        XCTAssertEqual(NominatimResults.precision(of: "road"), .street)
    }

    func testURIComponentsEncodeAsFoundationDoes() {
        var unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        unreserved.insert(charactersIn: "-._~")
        for text in ["Louvre", "Café de Flore", "a&b=c/d?e#f%g+h", "Zoë 👋🏽 家族", "-._~", "", "line\nbreak\u{0}"] {
            XCTAssertEqual(
                URIComponent.encoded(text), text.addingPercentEncoding(withAllowedCharacters: unreserved), text)
        }
    }

    private static func printfNumber(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    func testShareText() {
        let text = ShareText.address(
            name: "Anna", lines: ["Bahnhofstrasse 1", "CH-8001 Zürich", "Switzerland"], coordinate: zurich)
        XCTAssertEqual(
            text,
            "Anna\nBahnhofstrasse 1\nCH-8001 Zürich\nSwitzerland\nhttps://www.openstreetmap.org/?mlat=47.376887&mlon=8.541694#map=16/47.376887/8.541694"
        )
        let place = ShareText.place(
            name: "Café Sprüngli", address: "Paradeplatz", coordinate: zurich, notes: "Try the Luxemburgerli")
        XCTAssertTrue(
            place.hasPrefix(
                "Café Sprüngli\nParadeplatz\n47.376887,8.541694\nTry the Luxemburgerli\nhttps://www.openstreetmap.org/")
        )
    }

    func testAvatarPictures() {
        XCTAssertEqual(Avatar.gravatarHash(email: " MyEmailAddress@example.com "), "0bc83cb571cd1c50ba6f3e8a78ef1346")
        XCTAssertEqual(
            Avatar.gravatarURL(email: "myemailaddress@example.com"),
            "https://secure.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346?s=200&d=404")
        let svg = Avatar.initialsSVG(name: "Ann <Lee>", background: "#5f479a", size: 64)
        XCTAssertTrue(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64""#))
        XCTAssertTrue(svg.contains(##"fill="#5f479a""##))
        XCTAssertTrue(svg.contains(##"fill="#ffffff""##), "white on a dark background")
        XCTAssertTrue(svg.contains(">A&lt;</text>"), "text is escaped: \(svg)")
        XCTAssertTrue(svg.contains(#"aria-label="Ann &lt;Lee&gt;""#))
        XCTAssertTrue(
            Avatar.initialsSVG(name: "Zoë", background: "javascript:", size: 10).contains(##"fill="#fdb660""##),
            "a bad colour falls back")
        XCTAssertTrue(Avatar.defaultColors.contains(Avatar.defaultColor(forText: "place 7")))
    }
}

final class NominatimResultsTests: XCTestCase {
    func testResultsReadStringCoordinatesAndTheirPrecision() throws {
        let json = #"""
            [{"lat":"52.5170365","lon":"13.3888599","display_name":"Unter den Linden","addresstype":"road","address":{"country_code":"de"}},
             {"lat":"48.8584","lon":"2.2945","display_name":"Tour Eiffel","addresstype":"building"},
             {"lat":"51","lon":"10","display_name":"Deutschland","type":"country"},
             {"lat":"north","lon":"10"}]
            """#
        let results = try NominatimResults.parse(Data(json.utf8))
        XCTAssertEqual(results.map(\.precision), [.street, .building, .country])
        XCTAssertEqual(results.first?.coordinate, Coordinate(latitude: 52.5170365, longitude: 13.3888599))
        XCTAssertEqual(results.first?.countryCode, "DE")
        XCTAssertEqual(results.first?.source, "nominatim")
        XCTAssertThrowsError(try NominatimResults.parse(Data("<html>".utf8)))
    }

    /// What the map says a point is offers the category a new place goes to: one of the person's named
    /// like it, else the default for that kind while they have it.
    func testAKindOfPlaceSuggestsItsCategory() throws {
        let json = #"""
            [{"lat":"45.7687","lon":"4.8346","display_name":"Café Mokxa, Lyon","category":"amenity","type":"cafe"},
             {"lat":"45.76","lon":"4.83","display_name":"Lyon","type":"administrative"},
             {"lat":"45.76","lon":"4.83","display_name":"Somewhere","type":"yes"}]
            """#
        XCTAssertEqual(try NominatimResults.parse(Data(json.utf8)).map(\.placeKind), ["cafe", "administrative", nil])
        let now = Date(timeIntervalSince1970: 0)
        let categories = ["Restaurant", "Cafe", "Tourist Attraction", "Bakeries", "Book shop"].enumerated().map {
            PlaceCategory(id: $0.offset + 1, ownerID: 1, name: $0.element, createdAt: now, updatedAt: now)
        }
        func suggested(_ kind: String, _ among: [PlaceCategory] = categories) -> String? {
            PlaceCategory.suggested(forKind: kind, among: among)?.name
        }
        XCTAssertEqual(suggested("cafe"), "Cafe")
        XCTAssertEqual(suggested("fast_food"), "Restaurant")
        XCTAssertEqual(suggested("museum"), "Tourist Attraction")
        XCTAssertEqual(suggested("bakery"), "Bakeries", "the person's own category of that name, plural too")
        XCTAssertEqual(suggested("book_shop"), "Book shop")
        XCTAssertNil(suggested("administrative"))
        XCTAssertNil(suggested("museum", categories.filter { $0.name != "Tourist Attraction" }), "a default let go")
    }
}
