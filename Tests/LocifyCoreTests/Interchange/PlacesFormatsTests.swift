import XCTest

@testable import LocifyCore

final class PlacesFormatsTests: XCTestCase {
    let created = Date(timeIntervalSince1970: 1_714_817_165)
    lazy var places = [
        PlaceRecord(
            name: "Café Sprüngli", coordinate: Coordinate(latitude: 47.369758, longitude: 8.539288),
            address: "Paradeplatz, 8001 Zürich",
            notes: "Luxemburgerli <3 & coffee, \"the best\"", category: "Cafe", isFavorite: true, rating: 4,
            createdAt: created, color: "blue"),
        PlaceRecord(
            name: "Louvre", coordinate: Coordinate(latitude: 48.860611, longitude: 2.337644),
            notes: "Line one\nLine two",
            category: "Tourist Attraction", createdAt: created, color: "red"),
    ]

    func testGPXRoundTrips() {
        let text = GPX.write(places)
        XCTAssertTrue(text.contains(#"<wpt lat="47.369758" lon="8.539288">"#))
        XCTAssertTrue(text.contains("<type>Cafe</type>"))
        XCTAssertTrue(text.contains("<desc>Luxemburgerli &lt;3 &amp; coffee, &quot;the best&quot;</desc>"))
        let read = GPX.read(Data(text.utf8))
        XCTAssertEqual(read.issues, [])
        XCTAssertEqual(
            read.places,
            places.map {
                var place = $0
                place.color = nil
                return place
            })
        XCTAssertEqual(GPX.read(Data("<gpx><wpt lat=\"x\" lon=\"1\"/>".utf8)).issues.count, 1, "broken XML is reported")
    }

    func testKMLAndKMZRoundTrip() throws {
        let text = KML.write(places, documentName: "Saved")
        XCTAssertTrue(text.contains("<Document>\n  <name>Saved</name>"))
        XCTAssertTrue(text.contains("<description><![CDATA[Luxemburgerli <3 & coffee, \"the best\"]]></description>"))
        XCTAssertTrue(text.contains("<styleUrl>#placemark-blue</styleUrl>"))
        XCTAssertTrue(text.contains("<Point><coordinates>8.539288,47.369758</coordinates></Point>"))
        XCTAssertTrue(text.contains("<TimeStamp><when>2024-05-04T10:06:05Z</when></TimeStamp>"))
        // Each place keeps its category (its folder); one without takes the document's name.
        let expected = places.map {
            var place = $0
            place.category = place.category ?? "Saved"
            return place
        }
        XCTAssertEqual(KML.read(Data(text.utf8)).places, expected)
        let kmz = try KML.writeKMZ(places, documentName: "Saved")
        XCTAssertEqual(Array(kmz.prefix(2)), [0x50, 0x4B], "a zip archive")
        XCTAssertEqual(KML.readKMZ(kmz).places, expected)
        XCTAssertEqual(KML.readKMZ(Data("not a zip".utf8)).issues.count, 1)
    }

    func testKMLFromOtherAppsFillsTheGaps() {
        let text = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Trip</name><Folder><name>Food</name>
            <Placemark><Point><coordinates> 2.35 , 48.85 ,0 </coordinates></Point></Placemark>
            <Placemark><name>Route</name><LineString><coordinates>1,2 3,4</coordinates></LineString></Placemark>
            </Folder></Document></kml>
            """
        let read = KML.read(Data(text.utf8))
        XCTAssertEqual(
            read.places,
            [
                PlaceRecord(
                    name: "48.85, 2.35", coordinate: Coordinate(latitude: 48.85, longitude: 2.35), category: "Food",
                    color: "red")
            ])
        XCTAssertEqual(read.issues, [InterchangeIssue(record: 2, reason: "no point (lines and areas are not places)")])
    }

    func testGeoJSONRoundTrips() throws {
        let data = try GeoJSON.write(places)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let first = (object?["features"] as? [[String: Any]])?.first
        XCTAssertEqual(
            (first?["geometry"] as? [String: Any])?["coordinates"] as? [Double], [8.539288, 47.369758], "[lon, lat]")
        let read = GeoJSON.read(data)
        XCTAssertEqual(read.issues, [])
        XCTAssertEqual(
            read.places,
            places.map {
                var place = $0
                place.color = nil
                return place
            })
        let mixed = GeoJSON.read(
            Data(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":{}}]}"#
                    .utf8))
        XCTAssertEqual(mixed.issues, [InterchangeIssue(record: 1, reason: "not a Point with [lon, lat]")])
    }

    func testCSVRoundTripsWithQuotingAndLineBreaks() {
        let text = PlacesCSV.write(places)
        XCTAssertTrue(text.hasPrefix("name,latitude,longitude,category,favorite,address,notes,created_at,rating\r\n"))
        // A rating out of 1 to 5 (another app's 0 to 10, say) is no rating.
        let odd = PlacesCSV.read("name,latitude,longitude,rating\nA,1,1,7\nB,1,1,0\nC,1,1,5\n")
        XCTAssertEqual(odd.places.map(\.rating), [nil, nil, 5])
        XCTAssertTrue(text.contains(#""Luxemburgerli <3 & coffee, ""the best""""#))
        XCTAssertTrue(text.contains("\"Line one\nLine two\""))
        let read = PlacesCSV.read(text)
        XCTAssertEqual(read.issues, [])
        XCTAssertEqual(
            read.places,
            places.map {
                var place = $0
                place.color = nil
                return place
            })
        let bad = PlacesCSV.read("Name,Latitude,Longitude\n,1,2\nNo coords,,\nBad,95,0\n")
        XCTAssertEqual(bad.places.map(\.name), ["No coords"])
        XCTAssertEqual(bad.issues.map(\.record), [1, 3])
        XCTAssertEqual(CSV.decode("\u{FEFF}a,\"b\"\"c\",\r\n1,2,3"), [["a", "b\"c", ""], ["1", "2", "3"]])
    }

    func testTakeoutSavedPlacesNewerGeneration() {
        let json = """
            {"type":"FeatureCollection","features":[
             {"geometry":{"coordinates":[8.5417,47.3769],"type":"Point"},"properties":{"date":"2023-06-01T12:00:00Z",
              "google_maps_url":"http://maps.google.com/?cid=123","location":{"address":"Bahnhofstrasse 1, 8001 Zürich, Switzerland",
              "country_code":"CH","name":"Confiserie"}},"type":"Feature"},
             {"geometry":{"coordinates":[0,0],"type":"Point"},"properties":{"date":"2023-06-02T12:00:00Z",
              "google_maps_url":"http://maps.google.com/?q=Some+Street","location":{"address":"Some Street 5, Bern","name":"Unknown spot"}},"type":"Feature"},
             {"geometry":{"coordinates":[0,0],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=9","location":{}},"type":"Feature"}
            ]}
            """
        let read = Takeout.readSavedPlaces(Data(json.utf8))
        XCTAssertEqual(read.places.count, 2)
        XCTAssertEqual(read.places[0].name, "Confiserie")
        XCTAssertEqual(read.places[0].coordinate, Coordinate(latitude: 47.3769, longitude: 8.5417))
        XCTAssertEqual(read.places[0].externalID, "http://maps.google.com/?cid=123")
        XCTAssertEqual(read.places[0].createdAt, InterchangeDates.parse("2023-06-01T12:00:00Z"))
        XCTAssertNil(read.places[1].coordinate, "[0,0] means unknown: geocode the address")
        XCTAssertEqual(read.places[1].address, "Some Street 5, Bern")
        XCTAssertEqual(read.issues, [InterchangeIssue(record: 3, reason: "no coordinates and no address")])
    }

    func testTakeoutSavedPlacesOlderGeneration() {
        let json = """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},
             "properties":{"Title":"Eiffel Tower","Published":"2017-03-01T10:00:00Z","Updated":"2018-01-01T10:00:00Z",
             "Google Maps URL":"http://maps.google.com/?cid=456","Location":{"Business Name":"Tour Eiffel","Address":"Champ de Mars, Paris",
             "Country Code":"FR","Geo Coordinates":{"Latitude":"48.8584","Longitude":"2.2945"}}}}]}
            """
        let read = Takeout.readSavedPlaces(Data(json.utf8))
        XCTAssertEqual(read.issues, [])
        XCTAssertEqual(
            read.places,
            [
                PlaceRecord(
                    name: "Tour Eiffel", coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945),
                    address: "Champ de Mars, Paris",
                    createdAt: InterchangeDates.parse("2017-03-01T10:00:00Z"),
                    externalID: "http://maps.google.com/?cid=456")
            ])
        XCTAssertEqual(Takeout.readSavedPlaces(Data("[]".utf8)).issues.count, 1)
    }

    func testTakeoutListCSV() {
        let csv = """
            Title,Note,URL,Tags,Comment
            ,,,,
            Kunsthaus,Great Monets,"https://www.google.com/maps/search/47.3704,8.5481",,Go on Wednesday
            Somewhere,,https://www.google.com/maps/place/Somewhere/data=!4m2,,
            Pin,,https://www.google.com/maps/search/-33.8568%2C151.2153?entry=ttu,,
            """
        let read = Takeout.readListCSV(csv, listName: "Favorite places")
        XCTAssertEqual(read.places.map(\.name), ["Kunsthaus", "Pin"])
        XCTAssertEqual(read.places[0].notes, "Great Monets\nGo on Wednesday")
        XCTAssertEqual(read.places[0].coordinate, Coordinate(latitude: 47.3704, longitude: 8.5481))
        XCTAssertEqual(read.places[1].coordinate, Coordinate(latitude: -33.8568, longitude: 151.2153))
        XCTAssertTrue(read.places.allSatisfy { $0.isFavorite && $0.category == "Favorite places" })
        XCTAssertEqual(read.issues.map(\.record), [3])
        XCTAssertTrue(read.issues[0].reason.hasPrefix("the URL has no coordinates"))
    }
}
