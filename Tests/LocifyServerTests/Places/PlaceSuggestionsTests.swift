import Foundation
import LocifyAPI
import LocifyCore
import NIOCore
import XCTVapor

@testable import LocifyServer

/// What a place being added may be: named places around a point, from the configured place search and,
/// offline, the bundled gazetteer; through the API and the Add place page.
final class PlaceSuggestionsTests: XCTestCase {
    static let flore = #"""
        {"place_id":9,"lat":"48.8541","lon":"2.3326","display_name":"Café de Flore, 172, Boulevard Saint-Germain, Paris, France",
        "addresstype":"amenity","type":"cafe","address":{"amenity":"Café de Flore","country_code":"fr"}}
        """#

    private func nearby(_ app: Application, _ account: TestAccount, _ query: String) async throws
        -> [PlaceSearchResultResource]
    {
        let response = try await app.send(.GET, "/api/search/nearby?" + query, headers: account.bearer)
        XCTAssertEqual(response.status, .ok, "\(query): \(response.text)")
        return try response.decoded(DataEnvelope<[PlaceSearchResultResource]>.self).data
    }

    func testTheGazetteerNamesTheTownsAroundAPointNearestFirst() async throws {
        try await forEachDatabase { app, _, database in
            app.locifyConfig.geocoder = .gazetteer
            app.dependencies.geocoder = GazetteerGeocoder()
            let account = try await app.makeAccount()
            let found = try await nearby(app, account, "near=48.8566,2.3522&limit=4")
            XCTAssertEqual(found.count, 4, "\(database)")
            XCTAssertTrue(found[0].name.hasPrefix("Paris"), found[0].name)
            XCTAssertEqual(Set(found.map(\.source)), ["gazetteer"])
            XCTAssertEqual(Set(found.map(\.type)), ["geocoder"])
            let distances = found.compactMap(\.distanceKm)
            XCTAssertEqual(distances.count, 4)
            XCTAssertEqual(distances, distances.sorted(), "nearest first")
            let atSea = try await nearby(app, account, "near=35,-40")
            XCTAssertEqual(atSea, [], "nothing named in the middle of the Atlantic")
            let withText = try await nearby(app, account, "near=45.76,4.86&q=Lyon&limit=2")
            XCTAssertTrue(withText.first?.name.hasPrefix("Lyon") == true, "\(withText)")

            for (query, message) in [
                ("", "Say where to look"), ("near=abc", "Say where to look"), ("near=91,0", "Say where to look"),
                ("near=48.85,2.35&limit=0", "limit must be a whole number from 1 to"),
            ] {
                let refused = try await app.send(.GET, "/api/search/nearby?" + query, headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(query): \(refused.text)")
                XCTAssertTrue(refused.text.contains(message), "\(query): \(refused.text)")
            }
        }
    }

    /// With Nominatim, what is at the point comes first, with the category a place of its kind goes to; the
    /// gazetteer's towns follow; a search looks around the point; and Nominatim down leaves the gazetteer.
    func testNominatimNamesWhatIsThereAndTheGazetteerStillAnswersWhenItIsDown() async throws {
        try await forEachDatabase { app, _, database in
            let serve: StandInRoutes = { routes in
                routes.get("reverse") { _ in
                    Response(
                        status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: Self.flore))
                }
                routes.get("search") { _ in
                    Response(
                        status: .ok, headers: ["Content-Type": "application/json"],
                        body: .init(string: "[" + Self.flore + "]"))
                }
            }
            try await withStandIn(serve) { standIn in
                app.locifyConfig.geocoder = .nominatim
                app.dependencies.geocoder = NominatimGeocoder(
                    baseURL: standIn.baseURL, http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"),
                    spacing: RequestSpacing(interval: .milliseconds(1)))
                let account = try await app.makeAccount()
                let categories = try await app.placeCategories(of: account)
                let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
                let found = try await nearby(app, account, "near=48.8540,2.3325&limit=5")
                XCTAssertEqual(found.first?.name, "Café de Flore, 172, Boulevard Saint-Germain, Paris, France")
                XCTAssertEqual(found.first?.source, "nominatim")
                XCTAssertEqual(found.first?.placeKind, "cafe")
                XCTAssertEqual(found.first?.suggestedCategoryID, cafe.id)
                XCTAssertTrue(found.dropFirst().contains { $0.source == "gazetteer" }, "\(database): \(found)")
                let reverse = try XCTUnwrap(standIn.requests.first { $0.path == "/reverse" })
                let asked = URLComponents(string: "http://x/?\(reverse.query ?? "")")?.queryItems ?? []
                XCTAssertEqual(asked.first { $0.name == "lat" }?.value, "48.854")

                _ = try await nearby(app, account, "near=48.8540,2.3325&q=flore")
                let search = try XCTUnwrap(standIn.requests.last { $0.path == "/search" })
                let items = URLComponents(string: "http://x/?\(search.query ?? "")")?.queryItems ?? []
                XCTAssertEqual(items.first { $0.name == "viewbox" }?.value, "2.1825,48.954,2.4825,48.754")
                XCTAssertNil(items.first { $0.name == "bounded" }, "preferred, not required")

                app.dependencies.geocoder = NominatimGeocoder(
                    baseURL: standIn.baseURL + "/down", http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"),
                    spacing: RequestSpacing(interval: .milliseconds(1)))
                let offline = try await nearby(app, account, "near=48.8566,2.3522&limit=3")
                XCTAssertEqual(offline.count, 3)
                XCTAssertTrue(offline[0].name.hasPrefix("Paris"), "\(offline)")
            }
        }
    }

    func testAddPlaceAtAPointOffersTheNamedPlacesThere() async throws {
        try await forEachDatabase { app, _, database in
            app.locifyConfig.geocoder = .gazetteer
            app.dependencies.geocoder = GazetteerGeocoder()
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let page = try await browser.get("/places/new?lat=47.37&lon=8.54")
            XCTAssertEqual(page.status, .ok, "\(database)")
            XCTAssertTrue(page.text.contains(#"<h2 id="nearby-heading">Named places near here</h2>"#), page.text)
            XCTAssertTrue(page.text.contains("/places/new?name=Z%C3%BCrich&amp;address=Z%C3%BCrich"), page.text)
            XCTAssertTrue(page.text.contains(#"<input type="hidden" name="lat" value="47.37""#), "a search looks here")
            let searched = try await browser.get("/places/new?q=Zurich&lat=47.37&lon=8.54")
            XCTAssertTrue(searched.text.contains(#"aria-label="Found on the map""#))
            XCTAssertTrue(searched.text.contains(">Zürich, "), searched.text)
            XCTAssertFalse(searched.text.contains("Named places near here"), "a search shows its own answers")
            let plain = try await browser.get("/places/new")
            XCTAssertFalse(plain.text.contains("Named places near here"), "no point, nothing to offer")
        }
    }
}
