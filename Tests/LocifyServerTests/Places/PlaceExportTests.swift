import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Every export format read back by Core's readers keeps names, positions, notes, categories and favorites.
final class PlaceExportTests: XCTestCase {
    func testEveryFormatRoundTrips() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
            let sights = try XCTUnwrap(categories.first { $0.name == "Tourist Attraction" })
            let saved: [(String, Double, Double, Int, Bool, String?)] = [
                ("Café <Flore> & Co", 48.854_012_3, 2.332_498_7, cafe.id, true, "Terrace, \"best\" seat\nsecond line"),
                ("Tōkyō Tower", 35.658_581, 139.745_433, sights.id, false, nil),
                ("Fiji", -17.713_4, 178.065_012, sights.id, false, "Across the antimeridian"),
            ]
            for (name, latitude, longitude, category, favorite, notes) in saved {
                let body: [String: Any] = [
                    "name": name, "latitude": latitude, "longitude": longitude, "category_id": category,
                    "is_favorite": favorite, "notes": notes as Any,
                ]
                let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                let response = try await app.send(.POST, "/api/places", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .created, response.text)
            }
            let readers: [(PlaceExportFormat, (Data) -> PlaceImport)] = [
                (.gpx, GPX.read), (.kml, KML.read), (.kmz, KML.readKMZ), (.geojson, GeoJSON.read),
                (.csv, { PlacesCSV.read(String(decoding: $0, as: UTF8.self)) }),
            ]
            for (format, read) in readers {
                let response = try await app.send(
                    .GET, "/api/places/export?format=\(format.rawValue)", headers: account.bearer)
                XCTAssertEqual(response.status, .ok, "\(database) \(format)")
                XCTAssertEqual(response.headers.first(name: .contentType), format.mediaType)
                XCTAssertEqual(
                    response.headers.first(name: .contentDisposition),
                    "attachment; filename=\"locify-places-2024-05-04.\(format.fileExtension)\"")
                let imported = read(Data(response.body.readableBytesView))
                XCTAssertEqual(imported.issues, [], "\(format)")
                XCTAssertEqual(imported.places.count, 3, "\(format)")
                for (name, latitude, longitude, category, favorite, notes) in saved {
                    guard let place = imported.places.first(where: { $0.name == name }) else {
                        XCTFail("\(format): \(name) is missing")
                        continue
                    }
                    XCTAssertEqual(place.coordinate?.latitude ?? 0, latitude, accuracy: 1e-6, "\(format) \(name)")
                    XCTAssertEqual(place.coordinate?.longitude ?? 0, longitude, accuracy: 1e-6, "\(format) \(name)")
                    XCTAssertEqual(place.notes, notes, "\(format) \(name)")
                    XCTAssertEqual(place.category, category == cafe.id ? "Cafe" : "Tourist Attraction", "\(format)")
                    XCTAssertEqual(place.isFavorite, favorite, "\(format) \(name)")
                }
            }
            let favorites = try await app.send(
                .GET, "/api/places/export?format=csv&favorite=true", headers: account.bearer)
            XCTAssertEqual(PlacesCSV.read(favorites.text).places.map(\.name), ["Café <Flore> & Co"])
            let ofCategory = try await app.send(
                .GET, "/api/places/export?format=geojson&category_id=\(sights.id)", headers: account.bearer)
            XCTAssertEqual(GeoJSON.read(Data(ofCategory.body.readableBytesView)).places.count, 2)
            for query in ["", "format=shp", "format=gpx&favorite=perhaps"] {
                let refused = try await app.send(.GET, "/api/places/export?" + query, headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, query)
            }
            let other = try await app.makeAccount(email: "eve@example.com")
            let theirs = try await app.send(.GET, "/api/places/export?format=csv", headers: other.bearer)
            XCTAssertEqual(PlacesCSV.read(theirs.text).places.count, 0, "each account exports its own")
        }
    }
}
