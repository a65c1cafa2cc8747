import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// One search over places, contacts' addresses and the geocoder.
final class SearchAPITests: XCTestCase {
    func testOneSearchFindsPlacesAddressesAndTheGeocoderNearestFirst() async throws {
        try await forEachDatabase { app, _, database in
            let lyon = GeocodingResult(
                coordinate: Coordinate(latitude: 45.748, longitude: 4.847), displayName: "Lyon, France",
                countryCode: "FR",
                precision: .city, source: "stub")
            let mokxa = GeocodingResult(
                coordinate: Coordinate(latitude: 45.7687, longitude: 4.8346), displayName: "Café Mokxa, Lyon",
                countryCode: "FR", precision: .building, source: "stub", placeKind: "cafe")
            let geocoder = StubGeocoder { query in
                query.text.lowercased().contains("lyon") ? [lyon] : query.text == "mokxa" ? [mokxa] : []
            }
            app.dependencies.geocoder = geocoder
            let account = try await app.makeAccount()
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
            let created = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json: #"{"name": "Café de Lyon", "latitude": 45.767, "longitude": 4.834, "category_id": \#(cafe.id)}"#)
            XCTAssertEqual(created.status, .created)
            let place = try created.decoded(DataEnvelope<PlaceResource>.self).data
            let amelie = try await app.makeContact(for: account, ContactDraft(firstName: "Amélie", lastName: "Laurent"))
            let address = try await app.send(
                .POST, "/api/contacts/\(amelie.id)/addresses", headers: account.bearer,
                json: #"{"name": "Home", "city": "Lyon", "country": "FR", "latitude": 45.75, "longitude": 4.85}"#)
            XCTAssertEqual(address.status, .created, address.text)
            // Another account's place of the same name stays out.
            let other = try await app.makeAccount(email: "eve@example.com")
            let theirCategories = try await app.send(.GET, "/api/categories", headers: other.bearer)
                .decoded(PlaceCategoryListResource.self).data
            _ = try await app.send(
                .POST, "/api/places", headers: other.bearer,
                json:
                    #"{"name": "Lyon secret", "latitude": 45.7, "longitude": 4.8, "category_id": \#(theirCategories[0].id)}"#
            )

            let plain = try await app.send(.GET, "/api/search?q=LYON", headers: account.bearer)
            XCTAssertEqual(plain.status, .ok, "\(database): \(plain.text)")
            let results = try plain.decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data
            XCTAssertEqual(results.map(\.type), ["place", "address", "geocoder"], "own places first without near")
            XCTAssertEqual(results[0].placeID, place.id)
            XCTAssertEqual(results[1].contactID, amelie.id)
            XCTAssertEqual(results[1].name, "Amélie Laurent · Home")
            XCTAssertEqual(results[2].precision, "city")
            XCTAssertNil(results[0].distanceKm)
            // Near Lyon's station (Part-Dieu), nearest first, each with its distance.
            let here = Coordinate(latitude: 45.7606, longitude: 4.8594)
            let nearby = try await app.send(.GET, "/api/search?q=lyon&near=45.7606,4.8594", headers: account.bearer)
                .decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data
            let expected = results.sorted {
                Geo.distance(here, Coordinate(latitude: $0.latitude, longitude: $0.longitude))
                    < Geo.distance(here, Coordinate(latitude: $1.latitude, longitude: $1.longitude))
            }
            XCTAssertEqual(nearby.map(\.type), expected.map(\.type))
            XCTAssertTrue(nearby.allSatisfy { $0.distanceKm != nil })
            // An answer the geocoder says is a cafe offers the person's Cafe for it; a city, nothing.
            XCTAssertNil(results[2].placeKind)
            XCTAssertNil(results[2].suggestedCategoryID)
            let kind = try await app.send(.GET, "/api/search?q=mokxa", headers: account.bearer)
                .decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data
            XCTAssertEqual(kind.map(\.placeKind), ["cafe"], "\(database)")
            XCTAssertEqual(kind.map(\.suggestedCategoryID), [cafe.id])
            // The person's name finds their address; a geocoder that fails leaves the rest.
            app.dependencies.geocoder = StubGeocoder { _ in throw GeocoderDown() }
            let byName = try await app.send(.GET, "/api/search?q=amelie", headers: account.bearer)
                .decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data
            XCTAssertEqual(byName.map(\.type), ["address"])
            for query in ["", "q=", "q=x&near=north", "q=x&near=4e1,2", "q=x&limit=0", "q=x&limit=51"] {
                let refused = try await app.send(.GET, "/api/search?" + query, headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, query)
            }
            // Text with nothing to look for finds nothing (and asks no geocoder).
            let blank = try await app.send(.GET, "/api/search?q=%20%21", headers: account.bearer)
            XCTAssertEqual(blank.status, .ok)
            XCTAssertEqual(try blank.decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data.count, 0)
        }
    }
}
