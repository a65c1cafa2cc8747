import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOCore
import XCTVapor

@testable import LocifyServer

/// `LOCIFY_GEOCODER=nominatim` against a local Nominatim stand-in: what is asked, what is kept, and how
/// failures and slowness are handled.
final class NominatimTests: XCTestCase {
    static let linden = #"""
        [{"place_id":1,"lat":"52.5170365","lon":"13.3888599","display_name":"Unter den Linden 1, Berlin, Deutschland",
        "addresstype":"road","type":"primary","address":{"road":"Unter den Linden","country_code":"de"}}]
        """#

    private func useNominatim(_ app: Application, at baseURL: String, timeout: TimeAmount = .seconds(5)) {
        app.locifyConfig.geocoder = .nominatim
        app.dependencies.geocoder = NominatimGeocoder(
            baseURL: baseURL, http: LiveHTTPClient(client: .shared, userAgent: "Locify/test (admin@example.org)"),
            spacing: RequestSpacing(interval: .milliseconds(1)), timeout: timeout)
    }

    func testNominatimIsAskedOnceForTheSameTextAndItsAnswersAreKept() async throws {
        try await forEachDatabase { app, clock, database in
            let serve: StandInRoutes = { routes in
                routes.get("search") { request -> Response in
                    let query = request.query[String.self, at: "q"] ?? ""
                    let body = query.contains("Unter den Linden") ? Self.linden : "[]"
                    return Response(
                        status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: body))
                }
            }
            try await withStandIn(serve) { standIn in
                self.useNominatim(app, at: standIn.baseURL)
                let account = try await app.makeAccount()
                let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
                let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
                let service = AddressService(
                    database: app.db, ownerID: account.id, dependencies: app.dependencies, geocoderEnabled: true,
                    jobsQueued: {})
                let draft = PostalAddressDraft(
                    street: "Unter den Linden 1", city: "Berlin", postalCode: "10117", country: "DE")
                let first = try await service.create(contactID: ada.id, draft, coordinatesSent: false)
                let second = try await service.create(contactID: grace.id, draft, coordinatesSent: false)
                try await app.jobRunner.runDue(now: clock.now)

                XCTAssertEqual(standIn.requests.count, 1, "\(database): the same text is sent once")
                let request = try XCTUnwrap(standIn.requests.first)
                XCTAssertEqual(request.path, "/search")
                let items = URLComponents(string: "http://x/?\(request.query ?? "")")?.queryItems ?? []
                XCTAssertEqual(items.first { $0.name == "q" }?.value, "Unter den Linden 1, 10117, Berlin")
                XCTAssertEqual(items.first { $0.name == "format" }?.value, "jsonv2")
                XCTAssertEqual(items.first { $0.name == "countrycodes" }?.value, "de")
                XCTAssertEqual(request.headers.first(name: "User-Agent"), "Locify/test (admin@example.org)")
                for id in [first.id, second.id] {
                    let placed = try await service.address(id)
                    XCTAssertEqual(placed.address.coordinate, Coordinate(latitude: 52.5170365, longitude: 13.3888599))
                    XCTAssertEqual(placed.geocode, GeocodeState(status: .done, precision: .street, source: "nominatim"))
                }

                let nowhere = PostalAddressDraft(city: "Nowhere", country: "DE")
                let lost = try await service.create(contactID: ada.id, nowhere, coordinatesSent: false)
                let alsoLost = try await service.create(contactID: grace.id, nowhere, coordinatesSent: false)
                try await app.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(standIn.requests.count, 2, "\"nothing found\" is kept too")
                let notFound = try await service.address(lost.id)
                XCTAssertEqual(notFound.geocode.status, .notFound)
                let alsoNotFound = try await service.address(alsoLost.id)
                XCTAssertEqual(alsoNotFound.geocode.status, .notFound)
            }
        }
    }

    func testAFailingOrSlowNominatimIsRetriedLaterAndTheAddressStaysUsable() async throws {
        try await forEachDatabase { app, clock, _ in
            let serve: StandInRoutes = { routes in
                routes.get("broken", "search") { _ in HTTPStatus.internalServerError }
                routes.get("slow", "search") { _ async throws -> String in
                    try await Task.sleep(for: .seconds(2))
                    return "[]"
                }
            }
            try await withStandIn(serve) { standIn in
                let account = try await app.makeAccount()
                let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
                let service = AddressService(
                    database: app.db, ownerID: account.id, dependencies: app.dependencies, geocoderEnabled: true,
                    jobsQueued: {})
                self.useNominatim(app, at: standIn.baseURL + "/broken")
                let address = try await service.create(
                    contactID: ada.id, PostalAddressDraft(city: "Berlin"), coordinatesSent: false)
                try await app.jobRunner.runDue(now: clock.now)
                var job = try await JobRecord.all(on: app.db).first
                XCTAssertEqual(job?.state, .queued)
                XCTAssertEqual(job?.lastError, "Nominatim answered with status 500")
                let waiting = try await service.address(address.id)
                XCTAssertEqual(waiting.geocode.status, .pending)

                self.useNominatim(app, at: standIn.baseURL + "/slow", timeout: .milliseconds(300))
                clock.advance(by: 3600)
                let started = ContinuousClock.now
                try await app.jobRunner.runDue(now: clock.now)
                XCTAssertLessThan(ContinuousClock.now - started, .seconds(1.5), "a slow geocoder is given up on")
                job = try await JobRecord.all(on: app.db).first
                XCTAssertEqual(job?.attempts, 2)
                XCTAssertTrue(job?.lastError?.contains("could not be reached") == true, job?.lastError ?? "")
                let stillWaiting = try await service.address(address.id)
                XCTAssertEqual(stillWaiting.geocode.status, .pending)
            }
        }
    }

    func testRequestsAreSpacedAsThePolicyAsks() async throws {
        let serve: StandInRoutes = { routes in
            routes.get("search") { _ in "[]" }
        }
        try await withStandIn(serve) { standIn in
            let geocoder = NominatimGeocoder(
                baseURL: standIn.baseURL, http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"),
                spacing: RequestSpacing(interval: .milliseconds(300)))
            async let first = geocoder.search(GeocodingQuery(text: "a"))
            async let second = geocoder.search(GeocodingQuery(text: "b"))
            _ = try await (first, second)
            let times = standIn.requests.map(\.receivedAt).sorted()
            XCTAssertEqual(times.count, 2)
            XCTAssertGreaterThanOrEqual(times[1] - times[0], .milliseconds(250))
        }
    }

    func testTheGeocoderSettingNeedsAServerForNominatim() throws {
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_GEOCODER": "nominatim"])) {
            XCTAssertEqual(
                String(describing: $0),
                "LOCIFY_GEOCODER=nominatim is not valid: expected LOCIFY_NOMINATIM_URL to be set with it.")
        }
        let config = try LocifyConfig.resolve(environment: [
            "LOCIFY_GEOCODER": "Nominatim", "LOCIFY_NOMINATIM_URL": "http://geo.internal/",
        ])
        XCTAssertEqual(config.geocoder, .nominatim)
        XCTAssertEqual(config.outside.nominatimURL, "http://geo.internal")
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_GEOCODER": "google"]))
        XCTAssertEqual(try LocifyConfig.resolve(environment: ["LOCIFY_GEOCODER": "off"]).geocoder, .off)
    }
}
