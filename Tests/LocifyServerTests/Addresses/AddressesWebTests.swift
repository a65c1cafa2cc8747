import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class AddressesWebTests: XCTestCase {
    func testAddEditAndDeleteAnAddressFromTheContactPage() async throws {
        try await forEachDatabase { app, clock, database in
            app.dependencies.geocoder = StubGeocoder { _ in [] }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let contactPage = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(contactPage.text.contains("No addresses yet."))
            XCTAssertTrue(contactPage.text.contains(#"href="/contacts/\#(ada.id)/addresses/new""#))

            // The form is laid out for the chosen country: its names, its order, its postal code example.
            let usForm = try await browser.get("/contacts/\(ada.id)/addresses/new?country=US")
            XCTAssertTrue(usForm.text.contains(#"<label for="postal_code">ZIP code</label>"#), usForm.text)
            XCTAssertTrue(usForm.text.contains(#"<label for="province">State</label>"#))
            XCTAssertTrue(usForm.text.contains("For example 95014."))
            XCTAssertTrue(usForm.text.contains(#"<option value="US" selected>United States</option>"#))
            XCTAssertTrue(usForm.text.contains(#"<datalist id="name-suggestions"><option value="Home">"#))

            let invalid = try await browser.post(
                "/contacts/\(ada.id)/addresses",
                form: ["name": "Home", "country": "DE", "city": "Berlin", "postal_code": "1234", "latitude": "x"])
            XCTAssertEqual(invalid.status, .unprocessableEntity, "\(database)")
            XCTAssertTrue(invalid.text.contains("Postal codes in Germany look like 26133."), invalid.text)
            XCTAssertTrue(invalid.text.contains("Latitude must be a number."))
            XCTAssertTrue(
                invalid.text.contains(#"<details class="field" id="position" open>"#),
                "the position part opens on its error")
            XCTAssertTrue(invalid.text.contains(#"value="Berlin""#))

            // Switching country without JavaScript redraws the form and saves nothing.
            let refreshed = try await browser.post(
                "/contacts/\(ada.id)/addresses", form: ["intent": "refresh", "country": "GB", "city": "London"])
            XCTAssertEqual(refreshed.status, .ok)
            XCTAssertTrue(refreshed.text.contains(#"<label for="postal_code">Postcode</label>"#), refreshed.text)
            XCTAssertTrue(refreshed.text.contains(#"<label for="city">Post town</label>"#))

            let created = try await browser.post(
                "/contacts/\(ada.id)/addresses",
                form: [
                    "name": "Home", "country": "DE", "street": "Unter den Linden 1", "city": "Berlin",
                    "postal_code": "10117",
                ])
            XCTAssertEqual(created.status, .seeOther, created.text)
            let detail = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(detail.text.contains("The address was added."))
            // On screen as typed; the text to copy keeps the postal form, the city in capitals.
            XCTAssertTrue(detail.text.contains("Unter den Linden 1<br>10117 Berlin<br>Germany<br>"), detail.text)
            XCTAssertTrue(detail.text.contains("Finding this address on the map…"))
            XCTAssertTrue(detail.text.contains("Directions in OpenStreetMap"), "the preferred app from Settings")
            XCTAssertTrue(detail.text.contains("https://www.openstreetmap.org/search?query=Unter%20den%20Linden"))
            XCTAssertTrue(detail.text.contains(">Google Maps</a>"), "the other apps in a menu")
            XCTAssertTrue(
                detail.text.contains(#"class="share-text">Home"# + "\nUnter den Linden 1\n10117 BERLIN\nGermany\n"))

            try await app.jobRunner.runDue(now: clock.now)
            let afterLookUp = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(afterLookUp.text.contains("This address could not be found on the map."))

            let stored = try await app.storedAddresses().first
            let id = try XCTUnwrap(stored).id
            // A new address's form starts at the country used last.
            let next = try await browser.get("/contacts/\(ada.id)/addresses/new")
            XCTAssertTrue(next.text.contains(#"<option value="DE" selected>Germany</option>"#))

            let edit = try await browser.get("/contacts/\(ada.id)/addresses/\(id)/edit")
            XCTAssertTrue(edit.text.contains(#"value="Unter den Linden 1""#))
            let saved = try await browser.post(
                "/contacts/\(ada.id)/addresses/\(id)/edit",
                form: [
                    "name": "Work", "country": "DE", "street": "Unter den Linden 1", "city": "Berlin",
                    "postal_code": "10117", "latitude": "52.517", "longitude": "13.3889",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            let afterEdit = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(afterEdit.text.contains("The address was saved."))
            XCTAssertTrue(
                afterEdit.text.contains(
                    "https://www.openstreetmap.org/directions?engine=fossgis_osrm_car&amp;route=%3B52.517%2C13.3889"),
                afterEdit.text)
            XCTAssertFalse(afterEdit.text.contains("could not be found"))

            // Placed now: the card carries a map, and the Map page a marker that links to the contact.
            XCTAssertTrue(afterEdit.text.contains(#"data-map data-label="Map of Work""#), afterEdit.text)
            XCTAssertTrue(afterEdit.text.contains(#"data-tiles="/maps/tiles/{z}/{x}/{y}.png""#))
            let map = try await browser.get("/map")
            XCTAssertEqual(map.status, .ok, map.text)
            XCTAssertTrue(map.text.contains("0 places and 1 contact address."), map.text)
            XCTAssertTrue(map.text.contains("&quot;label&quot;:&quot;Ada Lovelace · Work&quot;"), map.text)
            XCTAssertTrue(map.text.contains(#"aria-current="page""#))

            let card = try await browser.get("/contacts/\(ada.id)/addresses/\(id)/vcard")
            XCTAssertEqual(card.status, .ok)
            XCTAssertTrue(card.text.contains("BEGIN:VCARD"))
            let all = try await browser.get("/contacts/\(ada.id)/vcard")
            XCTAssertEqual(all.headers.first(name: .contentDisposition), "attachment; filename=\"Ada Lovelace.vcf\"")

            let confirm = try await browser.get("/contacts/\(ada.id)/addresses/\(id)/delete")
            XCTAssertTrue(confirm.text.contains("Delete this address of Ada Lovelace?"))
            let deleted = try await browser.post("/contacts/\(ada.id)/addresses/\(id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let afterDelete = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(afterDelete.text.contains("The address was deleted."))
            XCTAssertTrue(afterDelete.text.contains("No addresses yet."))
        }
    }

    func testAnAddressTheGeocoderNeverReachesIsOfferedToBePlacedByHand() async throws {
        try await forEachDatabase { app, clock, database in
            app.dependencies.geocoder = StubGeocoder { _ in throw GeocoderDown() }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let created = try await browser.post(
                "/contacts/\(ada.id)/addresses", form: ["name": "Home", "country": "DE", "city": "Berlin"])
            XCTAssertEqual(created.status, .seeOther, created.text)
            for attempt in 1...GeocodeAddressJob.maximumAttempts {
                let ran = try await app.jobRunner.runDue(now: clock.now)
                XCTAssertEqual(ran, 1, "\(database): attempt \(attempt)")
                let page = try await browser.get("/contacts/\(ada.id)")
                let stillLooking = page.text.contains("Finding this address on the map…")
                XCTAssertEqual(
                    stillLooking, attempt < GeocodeAddressJob.maximumAttempts, "\(database): attempt \(attempt)")
                clock.advance(by: 7 * 3600)
            }
            let jobs = try await JobRecord.all(on: app.db)
            XCTAssertEqual(jobs.map(\.state), [.failed], "\(database): the job stays failed, for the administrator")
            let addresses = try await app.storedAddresses()
            let address = try XCTUnwrap(addresses.first)
            let page = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(page.text.contains("This address could not be found on the map."), page.text)
            let placeURL = "/contacts/\(ada.id)/addresses/\(address.id)/edit"
            XCTAssertTrue(page.text.contains(#"<a href="\#(placeURL)#position">Place the pin yourself</a>"#), page.text)
            let form = try await browser.get(placeURL)
            XCTAssertTrue(form.text.contains(#"<details class="field" id="position" open>"#), form.text)
            XCTAssertTrue(form.text.contains("tap the map to place the pin, or type its coordinates."))
            XCTAssertTrue(form.text.contains(#"data-pick="latitude,longitude""#))
            let placed = try await browser.post(
                placeURL,
                form: ["name": "Home", "country": "DE", "city": "Berlin", "latitude": "52.52", "longitude": "13.4"])
            XCTAssertEqual(placed.status, .seeOther, placed.text)
            let after = try await browser.get("/contacts/\(ada.id)")
            XCTAssertFalse(after.text.contains("could not be found"), "\(database)")
            XCTAssertTrue(after.text.contains(#"id="address-\#(address.id)-map""#))
        }
    }

    func testAPinTheGeocoderPutOnlyInTheCityLooksApproximateAndDirectionsLookUpTheAddress() async throws {
        try await forEachDatabase { app, clock, database in
            app.dependencies.geocoder = StubGeocoder { _ in [AddressesAPITests.berlin] }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let created = try await browser.post(
                "/contacts/\(ada.id)/addresses",
                form: ["name": "Home", "country": "DE", "street": "Unter den Linden 1", "city": "Berlin"])
            XCTAssertEqual(created.status, .seeOther, created.text)
            try await app.jobRunner.runDue(now: clock.now)
            let stored = try await app.storedAddresses()
            let address = try XCTUnwrap(stored.first)
            let page = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(
                page.text.contains(
                    "The map knows this address only around Berlin: directions look up the address itself."),
                "\(database): \(page.text)")
            let placeURL = "/contacts/\(ada.id)/addresses/\(address.id)/edit"
            XCTAssertTrue(page.text.contains(#"<a href="\#(placeURL)#position">Place the pin yourself</a>"#))
            // Directions and the shared link carry the address text, never Berlin's centre.
            XCTAssertTrue(
                page.text.contains("https://www.google.com/maps/dir/?api=1&amp;destination=Unter%20den%20Linden%201"),
                page.text)
            XCTAssertFalse(
                page.text.contains("=52.52437,") || page.text.contains("52.52437%2C")
                    || page.text.contains("\n52.52437"),
                "no link or shared text points at the city's centre")
            // The map draws the pin as the area it stands for (the markers travel as JSON in an attribute).
            XCTAssertTrue(page.text.contains("&quot;radius&quot;:5000"), page.text)
            XCTAssertTrue(page.text.contains("&quot;around&quot;:&quot;around Berlin&quot;"), page.text)
            XCTAssertTrue(page.text.contains(#"data-zoom="11""#), page.text)
            let form = try await browser.get(placeURL)
            XCTAssertTrue(form.text.contains(#"<details class="field" id="position" open>"#), form.text)
            XCTAssertTrue(form.text.contains("The geocoder found this address only around Berlin"), form.text)
            let home = try await browser.get("/map")
            XCTAssertTrue(home.text.contains("&quot;around&quot;:&quot;around Berlin&quot;"), "\(database)")

            let placed = try await browser.post(
                placeURL,
                form: [
                    "name": "Home", "country": "DE", "street": "Unter den Linden 1", "city": "Berlin",
                    "latitude": "52.51746", "longitude": "13.39697",
                ])
            XCTAssertEqual(placed.status, .seeOther, placed.text)
            let after = try await browser.get("/contacts/\(ada.id)")
            XCTAssertFalse(after.text.contains("around Berlin"), "\(database): a pin placed by hand is exact")
            XCTAssertTrue(after.text.contains("destination=52.51746%2C13.39697"), after.text)
        }
    }

    func testAnotherAccountsContactsAndAddressesAreNotFoundOnTheWeb() async throws {
        try await forEachDatabase { app, _, database in
            app.dependencies.geocoder = StubGeocoder { _ in [] }
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let service = AddressService(
                database: app.db, ownerID: owner.id, dependencies: app.dependencies, geocoderEnabled: false,
                jobsQueued: {})
            let address = try await service.create(
                contactID: ada.id, PostalAddressDraft(city: "Paris"), coordinatesSent: false)
            let browser = WebClient(app: app)
            _ = try await browser.register()
            for path in [
                "/contacts/\(ada.id)/addresses/new", "/contacts/\(ada.id)/addresses/\(address.id)/edit",
                "/contacts/\(ada.id)/addresses/\(address.id)/delete",
                "/contacts/\(ada.id)/addresses/\(address.id)/vcard",
                "/contacts/\(ada.id)/vcard",
            ] {
                let response = try await browser.get(path)
                XCTAssertEqual(response.status, .notFound, "\(database): \(path)")
            }
            let deleted = try await browser.post("/contacts/\(ada.id)/addresses/\(address.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .notFound)
            let remaining = try await app.count(AddressesTable.self)
            XCTAssertEqual(remaining, 1)
        }
    }
}
