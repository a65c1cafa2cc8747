import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyKit
@testable import LocifyServer

/// What the native apps' specifications ask of the SDK beyond sync: pictures kept on the device, the
/// reminders' days and a plan of local notifications, maps links and postal lines by Core's rules, and
/// countries kept for a day.
final class LocifyKitNativeTests: XCTestCase {
    func testAddressesAndPlacesAreWrittenLinkedAndSharedAsTheServerDoes() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let address = try await app.send(
                .POST, "/api/addresses", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "street": "12 rue de la Paix", "postal_code": "69002", "city": "Lyon", "country": "FR", "latitude": 45.76, "longitude": 4.83}"#
            )
            XCTAssertEqual(address.status, .created, address.text)
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let place = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json:
                    #"{"name": "Café Mokxa", "latitude": 45.7578, "longitude": 4.832, "category_id": \#(categories[0].id), "address": "3 rue de l'Abbé Rozier", "notes": "Flat white"}"#
            )
            XCTAssertEqual(place.status, .created, place.text)
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                try await LocifySync(client: LocifyClient(serverURL: url, token: account.token), store: store).sync()
                let contact = try XCTUnwrap(try store.contacts().first)
                let kept = try XCTUnwrap(try store.addresses(ofContact: contact).first)
                XCTAssertEqual(kept.postalLines(), ["12 rue de la Paix", "69002 Lyon", "France"])
                XCTAssertEqual(kept.postalLines(asWritten: false), ["12 rue de la Paix", "69002 LYON", "France"])
                let servedAddress = try await app.send(
                    .GET, "/api/addresses/\(try XCTUnwrap(kept.state.id))", headers: account.bearer
                ).decoded(DataEnvelope<AddressResource>.self).data
                XCTAssertNil(kept.json["map_links"], "made on the device, not kept")
                XCTAssertNil(kept.json["contact"], "the contact is a record of its own")
                XCTAssertEqual(kept.json["contact_id"]?.int, ada.id)
                for (mapsApp, served) in [
                    (MapsApp.openStreetMap, servedAddress.mapLinks.osm), (.googleMaps, servedAddress.mapLinks.google),
                    (.appleMaps, servedAddress.mapLinks.apple), (.organicMaps, servedAddress.mapLinks.organicMaps),
                ] {
                    XCTAssertEqual(kept.mapLink(in: mapsApp), served, "\(mapsApp): the server's link")
                }
                XCTAssertEqual(
                    kept.directionsLink(in: .googleMaps, mode: .walking),
                    "https://www.google.com/maps/dir/?api=1&destination=45.76%2C4.83&travelmode=walking")
                XCTAssertTrue(
                    kept.shareText.hasPrefix("12 rue de la Paix\n69002 LYON\nFrance\nhttps://www.openstreetmap.org/"),
                    kept.shareText)

                let cafe = try XCTUnwrap(try store.places().first)
                let servedPlace = try await app.send(
                    .GET, "/api/places/\(try XCTUnwrap(cafe.state.id))", headers: account.bearer
                ).decoded(DataEnvelope<PlaceResource>.self).data
                XCTAssertEqual(cafe.shareText, servedPlace.shareText, "the server's share text")
                XCTAssertEqual(cafe.mapLink(in: .openStreetMap), servedPlace.mapLinks.osm)
                XCTAssertNotNil(cafe.directionsLink(in: .appleMaps, mode: .transit))
            }
        }
    }

    func testTheTimelineAndTheNotificationPlanFollowCoresRulesAndTheStore() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            for body in [
                #"{"contact_id": \#(ada.id), "title": "Pay the rent", "initial_date": "2024-01-31", "frequency_type": "month", "frequency_number": 1}"#,
                #"{"contact_id": \#(ada.id), "title": "Call", "initial_date": "2024-05-06", "frequency_type": "week", "frequency_number": 1}"#,
                #"{"contact_id": \#(ada.id), "title": "Once", "initial_date": "2024-05-01", "frequency_type": "one_time", "frequency_number": 1}"#,
            ] {
                let made = try await app.send(.POST, "/api/reminders", headers: account.bearer, json: body)
                XCTAssertEqual(made.status, .created, made.text)
            }
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                try await LocifySync(client: LocifyClient(serverURL: url, token: account.token), store: store).sync()
                let today = try XCTUnwrap(CalendarDate(iso8601: "2024-05-04"))
                let upcoming = try store.upcomingReminders(from: today, days: 60)
                XCTAssertEqual(
                    upcoming.filter { $0.reminder.title == "Pay the rent" }.map(\.date.description),
                    ["2024-05-31", "2024-06-30"], "a 31st monthly falls on a short month's last day")
                XCTAssertEqual(upcoming.filter { $0.reminder.title == "Call" }.count, 9)
                XCTAssertFalse(upcoming.contains { $0.reminder.title == "Once" }, "a one-time reminder already past")
                XCTAssertEqual(Set(upcoming.compactMap(\.contactName)), ["Ada Lovelace"])
                XCTAssertEqual(upcoming.map(\.date), upcoming.map(\.date).sorted())

                let paris = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
                // 2024-05-06 08:00 in Paris: that day's 09:00 notifications are still to come.
                let now = Date(timeIntervalSince1970: 1_714_975_200)
                let plan = try store.notificationPlan(limit: 64, now: now, timeZone: paris, minutes: 9 * 60)
                XCTAssertEqual(plan.count, 64, "iOS keeps 64 waiting: the plan fills them")
                XCTAssertEqual(plan.first?.title, "Ada Lovelace: Call")
                XCTAssertEqual(plan.first?.body, "Today, Monday 6 May 2024.")
                XCTAssertEqual(plan.first?.fireDate, Date(timeIntervalSince1970: 1_714_978_800), "09:00 in Paris")
                XCTAssertEqual(plan.map(\.fireDate), plan.map(\.fireDate).sorted())
                XCTAssertEqual(Set(plan.map(\.id)).count, 64)
                XCTAssertTrue(plan.contains { $0.id.hasSuffix("@2024-05-31") && $0.title.hasSuffix("Pay the rent") })
                XCTAssertEqual(
                    try store.notificationPlan(limit: 3, now: now, timeZone: paris).map(\.id),
                    Array(plan.prefix(3).map(\.id)))

                // A reminder made on the device changes the plan handed to the app at once.
                var plans = store.notificationPlans(limit: 64, timeZone: paris).makeAsyncIterator()
                let before = try await plans.next()
                let contactUUID = try XCTUnwrap(try store.contacts().first).state.uuid
                let tomorrow = try XCTUnwrap(CalendarDate(Date(), in: paris).adding(days: 1))
                try store.create(
                    "reminder",
                    fields: [
                        "contact_uuid": .string(contactUUID), "title": "Tomorrow",
                        "initial_date": .string(tomorrow.description),
                        "frequency_type": "one_time",
                    ])
                let after = try await plans.next()
                XCTAssertEqual(before?.contains { $0.title.hasSuffix("Tomorrow") }, false)
                XCTAssertEqual(after?.first { $0.title.hasSuffix("Tomorrow") }?.id.hasSuffix("@\(tomorrow)"), true)
                XCTAssertEqual(
                    try store.upcomingReminders(from: tomorrow, days: 1).map(\.reminder.title).contains("Tomorrow"),
                    true)
            }
        }
    }

    /// The typed calls an app makes besides the sync, and a real photo through the picture cache.
    func testTheTypedClientCoversWhatTheAppsAskFor() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let reminder = try await app.send(
                .POST, "/api/reminders", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "title": "Call", "initial_date": "2024-05-04", "frequency_type": "week", "frequency_number": 1}"#
            )
            XCTAssertEqual(reminder.status, .created, reminder.text)
            try await app.listening { url in
                let client = LocifyClient(serverURL: url, token: account.token)
                let categories = try await client.categories()
                let cafe = try XCTUnwrap(categories.data.first { $0.name == "Cafe" })
                let created = try await app.send(
                    .POST, "/api/places", headers: account.bearer,
                    json: #"{"name": "Mokxa", "latitude": 45.7578, "longitude": 4.832, "category_id": \#(cafe.id)}"#)
                let placeID = try XCTUnwrap(try created.json()["data"] as? [String: Any])["id"] as? Int
                let favorite = try await client.setFavorite(placeID: try XCTUnwrap(placeID), true)
                XCTAssertTrue(favorite.isFavorite)
                let places = try await client.places()
                XCTAssertEqual(places.data.map(\.isFavorite), [true])
                let notFavorite = try await client.setFavorite(placeID: favorite.id, false)
                XCTAssertFalse(notFavorite.isFavorite)
                let reminders = try await client.reminders()
                XCTAssertEqual(reminders.data.map(\.title), ["Call"])
                let timeline = try await client.timeline()
                XCTAssertEqual(timeline.today.items.map(\.title), ["Call"], "the test clock's today is the 4th")
                XCTAssertEqual(timeline.today.items.first?.contact.name, "Ada Lovelace")
                let contacts = try await client.contacts(query: "lovelace")
                XCTAssertEqual(contacts.data.map(\.id), [ada.id])
                let made = try await app.send(
                    .POST, "/api/addresses", headers: account.bearer,
                    json: #"{"contact_id": \#(ada.id), "city": "London", "country": "GB"}"#)
                XCTAssertEqual(made.status, .created, made.text)
                let addresses = try await client.addresses(ofContact: ada.id)
                XCTAssertEqual(addresses.data.map(\.city), ["London"])
                let address = try await client.address(id: try XCTUnwrap(addresses.data.first?.id))
                XCTAssertEqual(address.country?.iso, "GB")

                let png = Data(try Avatar.discPNG(background: "#1f5fbf", size: 64))
                let uuid = UUID()
                let photo = try await client.uploadPhoto(png, toContact: ada.id, fileName: "ada.png", uuid: uuid)
                let retried = try await client.uploadPhoto(png, toContact: ada.id, fileName: "ada.png", uuid: uuid)
                XCTAssertEqual(retried.id, photo.id, "a retry makes no second photo")
                let photos = try await client.photos(ofContact: ada.id)
                XCTAssertEqual(photos.data.map(\.id), [photo.id])
                let chosen = try await client.chooseAvatar(ofContact: ada.id, source: "photo", photoID: photo.id)
                XCTAssertEqual(chosen.information.avatar.source, "photo")

                let store = try LocifyStore.inMemory()
                try await LocifySync(client: client, store: store).sync()
                let kept = try XCTUnwrap(try store.contact(id: ada.id))
                let network = CountingTransport()
                let cache = AvatarCache(directory: nil, transport: network)
                guard case .image(let bytes, let format) = await cache.picture(for: kept) else {
                    return XCTFail("the photo was not downloaded")
                }
                XCTAssertEqual(format, .png)
                XCTAssertEqual(ImageInfo([UInt8](bytes))?.width, 64)
                _ = await cache.picture(for: kept)
                XCTAssertEqual(network.paths.count, 1, "the second look comes from the device")
            }
        }
    }

    func testCheckedWritesRefuseBadValuesAtOnceAndTheServerTakesTheRest() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            try await app.listening { url in
                let store = try LocifyStore.inMemory()
                let client = LocifyClient(serverURL: url, token: account.token)
                let sync = LocifySync(client: client, store: store)
                // A new account's categories are made when first listed, as the web app's map does.
                _ = try await client.categories()
                try await sync.sync()
                let today = try XCTUnwrap(CalendarDate(iso8601: "2024-05-04"))
                XCTAssertThrowsError(
                    try store.createContact(
                        ContactDraft(lastName: "Nobody", birthdateDay: 31, birthdateMonth: 2), today: today)
                ) { error in
                    guard case .invalidInput(let errors) = error as? LocifyError else { return XCTFail("\(error)") }
                    XCTAssertEqual(Set(errors.map(\.field)).contains("first_name"), true, "\(errors)")
                    XCTAssertTrue(errors.count >= 2, "every problem at once: \(errors)")
                }
                XCTAssertThrowsError(
                    try store.createPlace(
                        PlaceDraft(name: "Nowhere", latitude: 91, longitude: 0),
                        in: try XCTUnwrap(try store.categories().first))
                ) {
                    guard case .invalidInput(let errors) = $0 as? LocifyError else { return XCTFail("\($0)") }
                    XCTAssertEqual(errors.map(\.field), ["latitude"])
                }
                XCTAssertEqual(try store.waitingChanges(), [], "nothing refused was queued")

                let ada = try store.createContact(
                    ContactDraft(
                        firstName: " Ada ", lastName: "Lovelace", email: "ada@example.com", birthdateDay: 10,
                        birthdateMonth: 12, birthdateYear: 1815, job: "Analyst", company: "Babbage & Co",
                        isStarred: true),
                    today: today)
                let contact = try XCTUnwrap(try store.contact(uuid: ada))
                XCTAssertEqual(contact.completeName, "Ada Lovelace")
                let address = try store.createAddress(
                    PostalAddressDraft(
                        street: "10 Downing Street", city: "London", postalCode: "SW1A 2AA", country: "gb"),
                    of: contact)
                XCTAssertThrowsError(
                    try store.createAddress(PostalAddressDraft(city: "Atlantis", country: "Atlantis"), of: contact))
                let cafe = try XCTUnwrap(try store.categories().first { $0.name == "Cafe" })
                let place = try store.createPlace(
                    PlaceDraft(name: "Mokxa", latitude: 45.7578, longitude: 4.832, rating: 4), in: cafe)
                try store.setFavorite(try XCTUnwrap(try store.place(uuid: place)), true)
                XCTAssertEqual(try store.place(uuid: place)?.isFavorite, true)
                XCTAssertThrowsError(try store.setRating(try XCTUnwrap(try store.place(uuid: place)), 6))
                XCTAssertThrowsError(
                    try store.createPlace(PlaceDraft(name: "Too good", latitude: 1, longitude: 1, rating: 9), in: cafe))
                try store.setRating(try XCTUnwrap(try store.place(uuid: place)), 5)
                let call = try store.createReminder(
                    ReminderDraft(title: "Call", initialDate: "2024-05-10", frequencyType: "week"), about: contact)
                XCTAssertThrowsError(
                    try store.createReminder(ReminderDraft(title: "", frequencyType: "fortnight"), about: contact))

                let report = try await sync.sync()
                let refusals = try store.refusals()
                XCTAssertEqual(report.refused, 0, "\(refusals)")
                let served = try XCTUnwrap(try store.contact(uuid: ada))
                XCTAssertNotNil(served.state.id)
                XCTAssertEqual(served.birthdate, "1815-12-10")
                XCTAssertEqual(served.job, "Analyst")
                XCTAssertEqual(served.company, "Babbage & Co")
                XCTAssertTrue(served.isStarred)
                XCTAssertEqual(try store.addresses(ofContact: served).map(\.postalAddress.countryCode), ["GB"])
                XCTAssertNotNil(try store.addresses(ofContact: served).first { $0.state.uuid == address }?.state.id)
                XCTAssertEqual(try store.place(uuid: place)?.isFavorite, true)
                XCTAssertEqual(try store.place(uuid: place)?.rating, 5, "the stars reached the server and came back")
                XCTAssertEqual(try store.reminders(ofContact: served).map(\.state.uuid), [call])
                XCTAssertEqual(try store.reminders(ofContact: served).first?.frequencyType, "week")
                let fields = try await app.send(
                    .GET, "/api/contacts/\(try XCTUnwrap(served.state.id))/contactfields", headers: account.bearer)
                XCTAssertTrue(fields.text.contains("ada@example.com"), fields.text)
            }
        }
    }

    /// A category listed as shared whose feed answers 404 (revoked between the two requests) is forgotten
    /// with what was kept of it.
    func testASharedCategoryWhoseFeedIsGoneIsForgotten() async throws {
        let listed = Data(
            #"{"data":[{"id":5,"object":"shared_category","name":"Trips","owner":{"id":1,"name":"Ada"},"can_edit":false,"places_count":1,"places_url":"x","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}]}"#
                .utf8)
        let page = Data(
            #"{"changes":[{"type":"place","uuid":"A","id":9,"revision":3,"data":{"id":9,"name":"Lyon","latitude":45.7,"longitude":4.8}}],"present":{"place":["a"]},"can_edit":false,"cursor":"1.3.0.9","has_more":false}"#
                .utf8)
        let gone = Data(#"{"error":{"message":"The resource has not been found","error_code":31}}"#.utf8)
        let revoked = NIOLockedValueBox(false)
        let server = ScriptedServer { request in
            switch request.url.path {
            case "/api/sharedcategories": HTTPResponse(status: 200, body: listed)
            case "/api/sharedcategories/5/sync":
                revoked.withLockedValue { $0 }
                    ? HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: gone)
                    : HTTPResponse(status: 200, body: page)
            default: HTTPResponse(status: 500)
            }
        }
        let store = try LocifyStore.inMemory()
        let sync = LocifySync(
            client: LocifyClient(serverURL: URL(string: "https://locify.example.com/")!, token: "t", transport: server),
            store: store)
        let report = try await sync.pullShared()
        XCTAssertEqual(report.pulledSharedChanges, 1)
        XCTAssertEqual(try store.sharedPlaces(inCategory: 5).map(\.name), ["Lyon"])
        XCTAssertEqual(try store.sharedCategories().map(\.ownerName), ["Ada"])
        revoked.withLockedValue { $0 = true }
        try await sync.pullShared()
        XCTAssertEqual(try store.sharedCategories(), [])
        XCTAssertEqual(try store.sharedPlaces(inCategory: 5), [])
    }

    func testPicturesAreKeptOnTheDeviceAndNamesWithoutOneAreDrawnHere() async throws {
        let png = Data(try Avatar.discPNG(background: "#1f5fbf", size: 8))
        let server = ScriptedServer { request in
            request.url.path == "/store/photos/7"
                ? HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: png)
                : HTTPResponse(status: 404)
        }
        func contact(avatar: JSONValue) -> StoredContact {
            StoredContact(
                state: RecordState(id: 1, uuid: "u", revision: 1, isWaiting: false),
                json: ["first_name": "Ada", "complete_name": "Ada Lovelace", "information": ["avatar": avatar]])
        }
        let photo = contact(avatar: [
            "source": "photo", "default_avatar_color": "#709512",
            "url": "https://locify.example.com/store/photos/7?v=a1&expires=1&signature=one",
        ])
        try await withStoreFile { path in
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("pictures")
            let cache = AvatarCache(directory: directory, transport: server)
            let first = await cache.picture(for: photo)
            XCTAssertEqual(first, .image(png, format: .png))
            _ = await cache.picture(for: photo)
            XCTAssertEqual(server.requests.count, 1, "the second look comes from memory")

            // Another start, offline, with next week's signature: from the disk.
            let again = AvatarCache(directory: directory, transport: NoNetwork())
            var resigned = photo
            resigned.json = resigned.json.setting(
                "https://locify.example.com/store/photos/7?v=a1&expires=2&signature=two",
                at: ["information", "avatar", "url"])
            let fromDisk = await again.picture(for: resigned)
            XCTAssertEqual(fromDisk, .image(png, format: .png))

            // A new picture (its version changed) is not on the device: offline, the initials stand in.
            var changed = photo
            changed.json = changed.json.setting(
                "https://locify.example.com/store/photos/7?v=b2&expires=2&signature=two",
                at: ["information", "avatar", "url"])
            guard case .initials(let letters, let background, let svg) = await again.picture(for: changed) else {
                return XCTFail("an unseen picture offline is not drawn as initials")
            }
            XCTAssertEqual(letters, "AL")
            XCTAssertEqual(background, "#709512")
            XCTAssertEqual(svg, Avatar.initialsSVG(name: "Ada Lovelace", background: "#709512"))

            // No picture at all: drawn here, the server never asked.
            let asked = server.requests.count
            let plain = contact(avatar: [
                "source": "default", "default_avatar_color": "#709512",
                "url": "https://locify.example.com/store/avatars/1",
            ])
            guard case .initials = await cache.picture(for: plain) else {
                return XCTFail("a contact with no picture is not drawn")
            }
            XCTAssertEqual(server.requests.count, asked)

            await cache.removeAll()
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        }
    }

    func testCountriesAreAskedForAtMostOnceADayAndKeptForOffline() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            try await app.listening { url in
                let network = CountingTransport()
                let store = try LocifyStore.inMemory()
                let sync = LocifySync(
                    client: LocifyClient(serverURL: url, token: account.token, transport: network), store: store)
                let now = Date(timeIntervalSince1970: 1_714_817_165)
                let countries = try await sync.countries(now: now)
                XCTAssertTrue(countries.contains { $0.iso == "FR" && $0.name == "France" })
                _ = try await sync.countries(now: now.addingTimeInterval(23 * 3600))
                XCTAssertEqual(network.paths.filter { $0 == "/api/countries" }.count, 1, "kept for a day")
                _ = try await sync.countries(now: now.addingTimeInterval(25 * 3600))
                XCTAssertEqual(network.paths.filter { $0 == "/api/countries" }.count, 2, "asked again after a day")

                let offline = LocifySync(
                    client: LocifyClient(serverURL: url, token: account.token, transport: NoNetwork()), store: store)
                let kept = try await offline.countries(now: now.addingTimeInterval(30 * 86400))
                XCTAssertEqual(kept, countries, "offline, the list kept, however old")
                let fresh = LocifySync(
                    client: LocifyClient(serverURL: url, token: account.token, transport: NoNetwork()),
                    store: try .inMemory())
                let shipped = try await fresh.countries()
                XCTAssertEqual(shipped.count, CountryCatalog.bundled.all.count, "before any, the list the SDK ships")
            }
        }
    }
}
