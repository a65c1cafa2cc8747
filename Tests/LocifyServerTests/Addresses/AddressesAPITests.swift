import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

struct GeocoderDown: Error {}

final class AddressesAPITests: XCTestCase {
    static let berlin = GeocodingResult(
        coordinate: Coordinate(latitude: 52.52437, longitude: 13.41053), displayName: "Berlin, Germany",
        countryCode: "DE", precision: .city, source: "gazetteer")

    func address(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/addresses",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> AddressResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<AddressResource>.self, file: file, line: line).data
    }

    func testAnAddressIsCreatedInMonicasShapeAndGeocodedAfterTheResponse() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let geocoder = StubGeocoder { query in
                XCTAssertEqual(query.country, "DE")
                return query.text.contains("Berlin") ? [Self.berlin] : []
            }
            app.dependencies.geocoder = geocoder
            let response = try await app.send(
                .POST, "/api/addresses", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "name": "Home", "street": "Unter den Linden 1", "city": "Berlin", "postal_code": "10117", "country": "deu"}"#
            )
            XCTAssertEqual(response.status, .created, response.text)
            XCTAssertEqual(geocoder.searches, 0, "\(database): nothing waits on the geocoder")
            // Monica's keys in Monica's order, then Locify's.
            let keys = try XCTUnwrap(JSONKeyOrder.keys(of: response.text, at: ["data"]))
            XCTAssertEqual(
                keys,
                [
                    "id", "uuid", "object", "name", "street", "city", "province", "postal_code", "latitude",
                    "longitude", "country", "url", "account", "contact", "created_at", "updated_at", "contact_id",
                    "formatted", "map_links", "geocode",
                ])
            let created = try response.decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(created.object, "address")
            XCTAssertEqual(created.country?.iso, "DE")
            XCTAssertEqual(created.country?.name, "Germany")
            XCTAssertEqual(created.formatted, ["Unter den Linden 1", "10117 BERLIN", "Germany"])
            XCTAssertEqual(created.contactID, ada.id)
            XCTAssertEqual(created.contact.id, ada.id)
            XCTAssertEqual(created.url, "http://127.0.0.1:8080/api/addresses/\(created.id)")
            XCTAssertEqual(created.geocode, GeocodeResource(status: "pending"))
            XCTAssertNil(created.latitude)
            XCTAssertNil(created.mapLinks.osmand, "OsmAnd takes coordinates only")
            XCTAssertTrue(created.mapLinks.google.contains("Unter%20den%20Linden"), created.mapLinks.google)
            XCTAssertEqual(created.createdAt, "2024-05-04T10:06:05Z")

            let ranAfterSave = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranAfterSave, 1)
            XCTAssertEqual(geocoder.searches, 1)
            let geocoded = try await app.send(.GET, "/api/addresses/\(created.id)", headers: account.bearer)
                .decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(geocoded.latitude, 52.52437)
            XCTAssertEqual(geocoded.longitude, 13.41053)
            XCTAssertEqual(
                geocoded.geocode, GeocodeResource(status: "done", precision: "city", source: "gazetteer"))
            XCTAssertEqual(geocoded.updatedAt, created.updatedAt, "geocoding does not count as an edit")
            // The gazetteer knows Berlin, not the street: every maps app is sent the address text to find at
            // street level, not Berlin's centre (OsmAnd takes coordinates only, so it gets no link).
            let text = "Unter%20den%20Linden%201%2C%2010117%20BERLIN%2C%20Germany"
            XCTAssertEqual(
                geocoded.mapLinks,
                MapLinksResource(destination: .address("Unter den Linden 1, 10117 BERLIN, Germany")))
            XCTAssertEqual(geocoded.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=" + text)
            XCTAssertEqual(geocoded.mapLinks.apple, "https://maps.apple.com/?q=" + text)
            XCTAssertEqual(geocoded.mapLinks.geo, "geo:0,0?q=" + text)
            XCTAssertEqual(geocoded.mapLinks.organicMaps, "om://search?query=" + text)
            XCTAssertEqual(geocoded.mapLinks.osm, "https://www.openstreetmap.org/search?query=" + text)
            XCTAssertNil(geocoded.mapLinks.osmand)
            let ranAgain = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranAgain, 0, "the job ran once")

            // The full contact carries its addresses.
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            let full = try contact.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(full.addresses.map(\.id), [created.id])
            XCTAssertEqual(full.addresses.first?.formatted, created.formatted)
            let list = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<ContactResource>.self).data.first?.addresses.count, 1)
        }
    }

    func testPositionsAtTheStreetOrTypedInSendMapsAppsToTheCoordinates() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            app.dependencies.geocoder = StubGeocoder { query in
                [
                    GeocodingResult(
                        coordinate: Coordinate(latitude: 52.51746, longitude: 13.39697),
                        displayName: "Unter den Linden 1, Berlin", countryCode: "DE",
                        precision: query.text.contains("Linden") ? .street : .region, source: "nominatim")
                ]
            }
            let street = try await address(
                app, account,
                #"{"contact_id": \#(ada.id), "street": "Unter den Linden 1", "city": "Berlin", "country": "DE"}"#)
            let region = try await address(
                app, account, #"{"contact_id": \#(ada.id), "province": "BE", "country": "DE"}"#)
            try await app.jobRunner.runDue(now: clock.now)
            let placed = try await app.send(.GET, "/api/addresses/\(street.id)", headers: account.bearer)
                .decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(placed.geocode.precision, "street", "\(database)")
            XCTAssertEqual(
                placed.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=52.51746%2C13.39697")
            XCTAssertEqual(placed.mapLinks.osmand, "https://osmand.net/map?pin=52.51746,13.39697#16/52.51746/13.39697")
            let roughly = try await app.send(.GET, "/api/addresses/\(region.id)", headers: account.bearer)
                .decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(roughly.geocode.precision, "region")
            XCTAssertNotNil(roughly.latitude, "the approximate position is kept, for the map's circle")
            XCTAssertEqual(
                roughly.mapLinks, MapLinksResource(destination: .address(roughly.formatted.joined(separator: ", "))))

            let typed = try await address(
                app, account, #"{"contact_id": \#(ada.id), "city": "Oslo", "latitude": 59.91, "longitude": 10.75}"#)
            XCTAssertEqual(typed.geocode, GeocodeResource(status: "none", precision: "manual", source: "user"))
            XCTAssertEqual(typed.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=59.91%2C10.75")
        }
    }

    func testTheContactRouteTheCountryIDKeyAndTheContactFilter() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let first = try await address(
                app, account, #"{"city": "Lyon", "country_id": "fr"}"#, path: "/api/contacts/\(ada.id)/addresses")
            XCTAssertEqual(first.contactID, ada.id)
            XCTAssertEqual(first.country?.iso, "FR")
            _ = try await address(app, account, #"{"contact_id": "\#(grace.id)", "city": "Bern", "country": "CHE"}"#)
            let same = try await address(
                app, account, #"{"city": "Nice", "country": "fr", "country_id": " FR "}"#,
                path: "/api/contacts/\(ada.id)/addresses")
            XCTAssertEqual(same.country?.iso, "FR", "both keys may come when they agree")
            let beside = try await address(
                app, account, #"{"city": "Geneva", "country": "CH", "country_id": "fr$"}"#,
                path: "/api/contacts/\(ada.id)/addresses")
            XCTAssertEqual(beside.country?.iso, "CH", "country_id is read only without a country")
            _ = try await app.send(.DELETE, "/api/addresses/\(same.id)", headers: account.bearer)
            _ = try await app.send(.DELETE, "/api/addresses/\(beside.id)", headers: account.bearer)

            let ofAda = try await app.send(.GET, "/api/contacts/\(ada.id)/addresses", headers: account.bearer)
            XCTAssertEqual(try ofAda.decoded(PageResource<AddressResource>.self).data.map(\.city), ["Lyon"])
            let filtered = try await app.send(.GET, "/api/addresses?contact_id=\(grace.id)", headers: account.bearer)
            XCTAssertEqual(try filtered.decoded(PageResource<AddressResource>.self).data.map(\.city), ["Bern"])
            let all = try await app.send(.GET, "/api/addresses?sort=-created_at&limit=1", headers: account.bearer)
            let page = try all.decoded(PageResource<AddressResource>.self)
            XCTAssertEqual(page.meta.total, 2)
            XCTAssertEqual(page.links.next, "http://127.0.0.1:8080/api/addresses?limit=1&sort=-created_at&page=2")

            // A page mixing contacts with and without addresses gives each its own.
            _ = try await app.makeContact(for: account, ContactDraft(firstName: "Hedy"))
            let contacts = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            let cities = try contacts.decoded(PageResource<ContactResource>.self).data.map {
                [$0.firstName] + $0.addresses.compactMap(\.city)
            }
            XCTAssertEqual(cities, [["Ada", "Lyon"], ["Grace", "Bern"], ["Hedy"]])

            let countries = try await app.send(.GET, "/api/countries", headers: account.bearer)
            XCTAssertEqual(countries.status, .ok)
            let keys = try XCTUnwrap(JSONKeyOrder.keys(of: countries.text, at: ["data"]))
            XCTAssertEqual(keys.first, "af", "ordered by name: Afghanistan first")
            XCTAssertEqual(keys.count, CountryCatalog.bundled.all.count)
            let germany = try countries.decoded(DataEnvelope<CountryListResource>.self).data.countries
                .first { $0.iso == "DE" }
            XCTAssertEqual(germany, CountryResource(try XCTUnwrap(CountryCatalog.bundled.country(matching: "DE"))))
            XCTAssertTrue(countries.text.contains(#""de":{"id":"DE","object":"country","name":"Germany","iso":"DE"}"#))
        }
    }

    func testAnUpdateKeepsWhatItLeavesOutAndTypedCoordinatesAreNeverReplaced() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            app.dependencies.geocoder = StubGeocoder { _ in [Self.berlin] }
            let created = try await address(
                app, account, #"{"contact_id": \#(ada.id), "name": "Home", "city": "Berlin", "country": "DE"}"#)
            try await app.jobRunner.runDue(now: clock.now)

            clock.advance(by: 60)
            let renamed = try await app.send(
                .PUT, "/api/addresses/\(created.id)", headers: account.bearer, json: #"{"name": "Work"}"#)
            let afterRename = try renamed.decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(afterRename.name, "Work")
            XCTAssertEqual(afterRename.city, "Berlin", "\(database): left out, kept")
            XCTAssertEqual(afterRename.contactID, ada.id, "no contact_id: the contact is kept")
            XCTAssertEqual(afterRename.geocode.status, "done", "the text did not change: no new look-up")
            XCTAssertEqual(afterRename.latitude, 52.52437)

            let moved = try await app.send(
                .PUT, "/api/addresses/\(created.id)", headers: account.bearer, json: #"{"city": "Potsdam"}"#)
            let afterMove = try moved.decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(afterMove.geocode.status, "pending", "new text is looked up again")
            XCTAssertNil(afterMove.latitude, "the old coordinates no longer fit")

            let typed = try await app.send(
                .PUT, "/api/addresses/\(created.id)", headers: account.bearer,
                json: #"{"latitude": "52.39886", "longitude": 13.06566}"#)
            let afterTyping = try typed.decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(afterTyping.geocode, GeocodeResource(status: "none", precision: "manual", source: "user"))
            XCTAssertEqual(afterTyping.latitude, 52.39886)
            // The job queued for "Potsdam" finds the address no longer waiting and leaves it alone.
            try await app.jobRunner.runDue(now: clock.now)
            let retyped = try await app.send(
                .PUT, "/api/addresses/\(created.id)", headers: account.bearer, json: #"{"street": "Am Neuen Garten"}"#)
            let afterEdit = try retyped.decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(afterEdit.latitude, 52.39886, "typed coordinates survive edits of the text")
            XCTAssertEqual(afterEdit.geocode.source, "user")
            try await app.jobRunner.runDue(now: clock.now)
            let final = try await app.send(.GET, "/api/addresses/\(created.id)", headers: account.bearer)
                .decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(final.longitude, 13.06566)

            let cleared = try await app.send(
                .PUT, "/api/addresses/\(created.id)", headers: account.bearer, json: #"{"latitude": null}"#)
            XCTAssertEqual(try cleared.decoded(DataEnvelope<AddressResource>.self).data.geocode.status, "pending")
        }
    }

    func testEveryProblemComesInOne422AndChangesNothing() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let response = try await app.send(
                .POST, "/api/addresses", headers: account.bearer,
                json:
                    #"{"postal_code": "ABC", "country": "de", "latitude": 200, "street": "\#(String(repeating: "x", count: 256))"}"#
            )
            XCTAssertEqual(response.status, .unprocessableEntity)
            XCTAssertEqual(response.errorCode, 32)
            let messages = try response.decoded(ErrorEnvelope.self).error.message
            XCTAssertEqual(
                messages,
                .list([
                    "Choose the contact this address belongs to.", "Street must be at most 255 characters.",
                    "Postal codes in Germany look like 26133.", "Give the longitude with the latitude, or neither.",
                ]))
            let typeErrors = try await app.send(
                .POST, "/api/contacts/\(ada.id)/addresses", headers: account.bearer,
                json: #"{"city": "Rome", "latitude": "north", "longitude": 12, "country": "Atlantis"}"#)
            XCTAssertEqual(typeErrors.status, .unprocessableEntity)
            XCTAssertEqual(
                try typeErrors.decoded(ErrorEnvelope.self).error.message,
                .list([
                    "Latitude must be a number.", "Country “Atlantis” is not a known ISO country code or name.",
                ]))
            let empty = try await app.send(.POST, "/api/contacts/\(ada.id)/addresses", headers: account.bearer)
            XCTAssertEqual(
                try empty.decoded(ErrorEnvelope.self).error.message,
                .list(["Give at least a street, a city or a country."]))
            let notJSON = try await app.send(
                .POST, "/api/addresses", headers: account.bearer.merging(["Content-Type": "text/plain"]))
            XCTAssertEqual(notJSON.status, .unprocessableEntity, "an empty body is an empty input")
            let list = try await app.send(.GET, "/api/addresses", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<AddressResource>.self).meta.total, 0)
        }
    }

    /// An update is checked after what it keeps is merged in: a rule it breaks only because of a kept
    /// value answers 409 (the body alone is well-formed); one the body breaks by itself answers 422.
    func testAnUpdateThatClashesWithWhatItKeepsIsAConflict() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let created = try await app.send(
                .POST, "/api/contacts/\(ada.id)/addresses", headers: account.bearer,
                json: #"{"street": "Unter den Linden 1", "postal_code": "10117", "country": "DE"}"#)
            let id = try created.decoded(DataEnvelope<AddressResource>.self).data.id
            let expectations: [(String, HTTPStatus)] = [
                (#"{"postal_code": "ABC"}"#, .conflict),
                (#"{"country": "GB"}"#, .conflict),
                (#"{"street": "", "country": null}"#, .conflict),
                (#"{"postal_code": "ABC", "country": "de"}"#, .unprocessableEntity),
                (#"{"street": "", "city": null, "country": " "}"#, .unprocessableEntity),
                (#"{"country": "DE", "country_id": "fra"}"#, .ok),
                (#"{"latitude": 52.5}"#, .unprocessableEntity),
                (#"{"country": "de", "country_id": "DEU", "postal_code": "10115"}"#, .ok),
            ]
            for (json, status) in expectations {
                let response = try await app.send(.PUT, "/api/addresses/\(id)", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, status, "\(json): \(response.text)")
            }
            let stored = try await app.send(.GET, "/api/addresses/\(id)", headers: account.bearer)
                .decoded(DataEnvelope<AddressResource>.self).data
            XCTAssertEqual(stored.postalCode, "10115", "only the last update changed anything")
        }
    }

    func testAnotherAccountsAddressesAndContactsAreNotFoundOnEveryRoute() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            app.dependencies.geocoder = StubGeocoder { _ in [] }
            let mine = try await address(app, owner, #"{"contact_id": \#(ada.id), "city": "Paris"}"#)
            let intruder = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let requests: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/addresses/\(mine.id)", nil),
                (.PUT, "/api/addresses/\(mine.id)", #"{"city": "Nice"}"#),
                (.DELETE, "/api/addresses/\(mine.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/addresses", nil),
                (.POST, "/api/contacts/\(ada.id)/addresses", #"{"city": "Nice"}"#),
                (.POST, "/api/addresses", #"{"contact_id": \#(ada.id), "city": "Nice"}"#),
                (.GET, "/api/contacts/\(ada.id)/vcard", nil),
                (.GET, "/api/contacts/\(ada.id)/addresses/\(mine.id)/vcard", nil),
                (.GET, "/api/addresses?contact_id=x", nil),
            ]
            for (method, path, body) in requests {
                let response = try await app.send(method, path, headers: intruder.bearer, json: body)
                XCTAssertEqual(response.status, .notFound, "\(database): \(method) \(path)")
                XCTAssertEqual(response.errorCode, 31)
            }
            let theirs = try await app.send(.GET, "/api/addresses", headers: intruder.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<AddressResource>.self).meta.total, 0)
            // Moving one's own address to another account's contact is refused too.
            let eves = try await app.makeContact(for: intruder, ContactDraft(firstName: "Eve"))
            let move = try await app.send(
                .PUT, "/api/addresses/\(mine.id)", headers: owner.bearer, json: #"{"contact_id": \#(eves.id)}"#)
            XCTAssertEqual(move.status, .notFound)
            let still = try await app.send(.GET, "/api/addresses/\(mine.id)", headers: owner.bearer)
            XCTAssertEqual(try still.decoded(DataEnvelope<AddressResource>.self).data.city, "Paris")
        }
    }

    func testDeletingAContactDeletesItsAddressesInTheDatabase() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let created = try await address(
                app, account, #"{"contact_id": \#(ada.id), "city": "Oslo", "latitude": 59.91, "longitude": 10.75}"#)
            XCTAssertEqual(created.geocode, GeocodeResource(status: "none", precision: "manual", source: "user"))
            // Straight through SQL, so it is the database's foreign key that cascades, not the service.
            try await app.db.sqlDatabase().raw("DELETE FROM contacts WHERE id = \(literal: ada.id)").run()
            let remaining = try await app.count(AddressesTable.self)
            XCTAssertEqual(remaining, 0, "\(database)")
            let gone = try await app.send(.GET, "/api/addresses/\(created.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)

            let other = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let second = try await address(app, account, #"{"contact_id": \#(other.id), "city": "Oslo"}"#)
            let deleted = try await app.send(.DELETE, "/api/addresses/\(second.id)", headers: account.bearer)
            XCTAssertEqual(try deleted.decoded(DeletedResource.self), DeletedResource(id: second.id))
            let contactDeleted = try await app.send(.DELETE, "/api/contacts/\(other.id)", headers: account.bearer)
            XCTAssertEqual(contactDeleted.status, .ok)
        }
    }

    func testVCardsCarryTheAddressesWithLabelAndPosition() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(
                for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com"))
            let home = try await address(
                app, account,
                #"{"contact_id": \#(ada.id), "name": "Home", "street": "12 St James's Square", "city": "London", "postal_code": "SW1Y 4LB", "country": "GB", "latitude": 51.5074, "longitude": -0.1345}"#
            )
            let card = try await app.send(.GET, "/api/contacts/\(ada.id)/vcard", headers: account.bearer)
            XCTAssertEqual(card.status, .ok)
            XCTAssertEqual(card.headers.contentType?.description, "text/vcard; charset=utf-8")
            XCTAssertEqual(
                card.headers.first(name: .contentDisposition), "attachment; filename=\"Ada Lovelace.vcf\"")
            XCTAssertTrue(card.text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"), card.text)
            // Long lines are folded at 75 octets; the checks read them unfolded.
            let unfolded = card.text.replacingOccurrences(of: "\r\n ", with: "")
            XCTAssertTrue(unfolded.contains("\r\nFN:Ada Lovelace\r\n"), unfolded)
            XCTAssertTrue(unfolded.contains("\r\nEMAIL:ada@example.com\r\n"), unfolded)
            XCTAssertTrue(
                unfolded.contains(
                    #"ADR;TYPE=home;LABEL="12 St James's Square\nLONDON\nSW1Y 4LB\nUnited Kingdom";GEO="geo:51.5074,-0.1345":;;12 St James's Square;London;;SW1Y 4LB;United Kingdom"#
                ), unfolded)
            let (cards, issues) = VCardFormat.read(card.text)
            XCTAssertEqual(issues, [])
            XCTAssertEqual(cards.first?.addresses.first?.coordinate, Coordinate(latitude: 51.5074, longitude: -0.1345))
            XCTAssertEqual(cards.first?.addresses.first?.types, ["home"])

            let one = try await app.send(
                .GET, "/api/contacts/\(ada.id)/addresses/\(home.id)/vcard", headers: account.bearer)
            XCTAssertEqual(one.status, .ok)
            XCTAssertEqual(VCardFormat.read(one.text).cards.first?.addresses.count, 1)
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let mismatched = try await app.send(
                .GET, "/api/contacts/\(grace.id)/addresses/\(home.id)/vcard", headers: account.bearer)
            XCTAssertEqual(mismatched.status, .notFound, "the address is Ada's, not Grace's")
        }
    }
}
