import XCTest

@testable import LocifyCore

final class GazetteerTests: XCTestCase {
    static let geocoder = GazetteerGeocoder()

    func testTheBundledGazetteerLoads() {
        let gazetteer = Gazetteer.bundled
        XCTAssertEqual(gazetteer.places.count, 170_391)
        XCTAssertEqual(gazetteer.places.first?.name, "Shanghai")
        XCTAssertTrue(Gazetteer.bundled === gazetteer, "loaded once")
    }

    func testParisInFrance() throws {
        let results = Self.geocoder.results(for: GeocodingQuery(text: "Paris", country: "FR"))
        let paris = try XCTUnwrap(results.first)
        XCTAssertEqual(paris.countryCode, "FR")
        XCTAssertEqual(paris.coordinate.latitude, 48.85341, accuracy: 0.001)
        XCTAssertEqual(paris.precision, .city)
        XCTAssertEqual(paris.source, "gazetteer")
        XCTAssertTrue(paris.displayName.hasPrefix("Paris"))
        XCTAssertTrue(paris.displayName.hasSuffix("France"))
        let geocoder = GazetteerGeocoder()
        XCTAssertEqual(geocoder.admin1Codes(matching: "Illinois", countryCode: "US"), ["ILLINOIS", "IL"])
        // A single-part query is not read as its own province.
        XCTAssertEqual(
            Self.geocoder.results(for: GeocodingQuery(text: "Springfield", country: "US")).first?.displayName,
            "Springfield, Missouri, United States")
        let texas = Self.geocoder.results(for: GeocodingQuery(text: "Paris", country: "US", province: "TX")).first
        XCTAssertEqual(texas?.countryCode, "US")
        XCTAssertEqual(texas?.displayName, "Paris, Texas, United States")
    }

    func testSpringfieldIsTiedBrokenByProvince() throws {
        let illinois = try XCTUnwrap(
            Self.geocoder.results(for: GeocodingQuery(text: "Springfield", country: "US", province: "IL")).first)
        XCTAssertEqual(illinois.coordinate.latitude, 39.80172, accuracy: 0.001)
        let massachusetts = try XCTUnwrap(
            Self.geocoder.results(for: GeocodingQuery(text: "springfield", country: "us", province: "Massachusetts"))
                .first)
        XCTAssertEqual(massachusetts.coordinate.latitude, 42.10148, accuracy: 0.001)
        let unqualified = try XCTUnwrap(
            Self.geocoder.results(for: GeocodingQuery(text: "Springfield", country: "US")).first)
        XCTAssertEqual(
            unqualified.displayName, "Springfield, Missouri, United States", "without a province, the most populous")
        let fromAddress = try XCTUnwrap(
            Self.geocoder.results(for: GeocodingQuery(text: "10 Main St, Springfield, IL", country: "US")).first)
        XCTAssertEqual(
            fromAddress.coordinate.latitude, 39.80172, accuracy: 0.001,
            "the address's parts are tried, its province used")
    }

    func testAccentsAndAlternatesAreFound() throws {
        let zurich = try XCTUnwrap(Self.geocoder.results(for: GeocodingQuery(text: "Zurich")).first)
        XCTAssertEqual(zurich.countryCode, "CH")
        XCTAssertTrue(zurich.displayName.hasPrefix("Zürich"))
        XCTAssertEqual(Gazetteer.bundled.places(named: "ZÜRICH").first?.geonameID, 2_657_896)
        XCTAssertEqual(Gazetteer.key("Saint-Étienne"), "saint etienne")
    }

    func testANameAbsentFromACountryFallsBackToTheCountry() throws {
        let results = Self.geocoder.results(for: GeocodingQuery(text: "Zurich", country: "JP"))
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(results.first?.precision, .country)
        XCTAssertEqual(results.first?.displayName, "Japan")
        XCTAssertEqual(try XCTUnwrap(results.first).coordinate.latitude, 35.69, accuracy: 0.1, "Tokyo stands for Japan")
        XCTAssertTrue(Self.geocoder.results(for: GeocodingQuery(text: "Qwxyzzy")).isEmpty)
    }

    func testReverseFindsTheNearestPlaceButNothingAtSea() async throws {
        let nearZurich = try await Self.geocoder.reverse(Coordinate(latitude: 47.3700, longitude: 8.5400))
        XCTAssertEqual(nearZurich?.displayName.hasPrefix("Zürich"), true)
        let midAtlantic = try await Self.geocoder.reverse(Coordinate(latitude: 35.0, longitude: -40.0))
        XCTAssertNil(midAtlantic)
        // Across the antimeridian, from the east edge of the grid.
        let fiji = Gazetteer.bundled.nearest(to: Coordinate(latitude: -16.8, longitude: 179.99), within: 200_000)
        XCTAssertEqual(fiji?.countryCode, "FJ")
    }

    /// The suggestions around a point: every place within the distance, nearest first, as a scan of all
    /// of them finds them; across the antimeridian too.
    func testPlacesNearAPointMatchABruteForceScan() {
        let gazetteer = Gazetteer.bundled
        for point in [
            Coordinate(latitude: 48.8566, longitude: 2.3522), Coordinate(latitude: -16.8, longitude: 179.99),
            Coordinate(latitude: 78.22, longitude: 15.65), Coordinate(latitude: 35.0, longitude: -40.0),
        ] {
            let found = gazetteer.places(near: point, within: 30_000, limit: 5)
            let expected = gazetteer.places.map { ($0, Geo.distance(point, $0.coordinate)) }
                .filter { $0.1 <= 30_000 }.sorted { $0.1 < $1.1 }.prefix(5)
            XCTAssertEqual(found.map(\.place.geonameID), expected.map(\.0.geonameID), "\(point)")
            XCTAssertEqual(found.map(\.meters), found.map(\.meters).sorted(), "nearest first")
        }
        let paris = gazetteer.places(near: Coordinate(latitude: 48.8566, longitude: 2.3522), limit: 3)
        XCTAssertEqual(paris.first?.place.name.hasPrefix("Paris"), true, "\(paris)")
        XCTAssertTrue(gazetteer.places(near: Coordinate(latitude: 35.0, longitude: -40.0)).isEmpty, "nothing at sea")
    }

    func testNearbyNamesTheTownsAroundAPoint() async throws {
        let found = try await Self.geocoder.nearby(Coordinate(latitude: 47.3700, longitude: 8.5400), limit: 4)
        XCTAssertEqual(found.count, 4)
        XCTAssertEqual(found.first?.displayName.hasPrefix("Zürich"), true)
        XCTAssertEqual(Set(found.map(\.source)), ["gazetteer"])
    }

    func testNearestPlaceFarAlongAParallelNearThePole() throws {
        // At 85° N a degree of longitude is about 9.7 km: a town 4.5° east is 44 km away, four grid cells.
        let tsv =
            "geonameid\tname\tlatitude\tlongitude\tcountry\tadmin1\tpopulation\ttimezone\tlatin_alternates\n"
            + "1\tFar East\t85.0\t14.5\tNO\t\t1000\tArctic/Longyearbyen\t\n"
            + "2\tToo Far\t85.0\t0.0\tNO\t\t5000\tArctic/Longyearbyen\t\n"
        let gazetteer = Gazetteer(tsv: Data(tsv.utf8))
        let point = Coordinate(latitude: 85.0, longitude: 10.0)
        XCTAssertEqual(Geo.distance(point, Coordinate(latitude: 85.0, longitude: 14.5)), 43_600, accuracy: 500)
        XCTAssertEqual(gazetteer.nearest(to: point)?.name, "Far East")
        XCTAssertNil(gazetteer.nearest(to: Coordinate(latitude: 85.0, longitude: 7.2)), "both over 50 km away")
    }

    func testReverseMatchesABruteForceScan() {
        let gazetteer = Gazetteer.bundled
        var generator = SeededGenerator(seed: 7)
        // Far north too, where a degree of longitude is short and the ring walk must not stop early.
        let latitudes: [ClosedRange<Double>] =
            Array(repeating: -60...70, count: 40) + Array(repeating: 75...84, count: 20)
        for latitudeRange in latitudes {
            let point = Coordinate(
                latitude: Double.random(in: latitudeRange, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
            let expected = gazetteer.places
                .map { ($0, Geo.distance(point, $0.coordinate)) }
                .filter { $0.1 <= 50_000 }
                .min { $0.1 < $1.1 }?.0
            XCTAssertEqual(gazetteer.nearest(to: point)?.geonameID, expected?.geonameID, "\(point)")
        }
    }
}
