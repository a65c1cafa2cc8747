import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The sample data: every feature filled once (the start page's "Fill with sample data", `locify seed --demo`),
/// and "Remove sample data" taking exactly that away, through deletes synced devices hear of.
final class SampleDataTests: XCTestCase {
    func testAnEmptyAccountIsFilledWithEveryFeatureOnceAndTheSampleGoesAwayAlone() async throws {
        try await forEachDatabase { app, clock, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let token = try await LocifyApp.createToken(in: app, email: "grace@example.com", label: "check")
            let bearer: HTTPHeaders = ["Authorization": "Bearer \(token)"]
            func page<Item>(_ path: String, of: Item.Type) async throws -> PageResource<Item> {
                try await app.send(.GET, path, headers: bearer).decoded(PageResource<Item>.self)
            }
            var start = try await browser.get("/start")
            XCTAssertTrue(start.text.contains(">Fill with sample data</button>"), "an empty account is offered it")
            XCTAssertFalse(start.text.contains("Remove sample data"))
            let empty = try await browser.get("/contacts")
            XCTAssertTrue(empty.text.contains(#"href="/start#sample-data">fill the account with sample data</a>"#))

            let filled = try await browser.post("/start/sample-data", form: [:])
            XCTAssertEqual(filled.status, .seeOther)
            XCTAssertEqual(filled.headers.first(name: .location), "/map")
            // The device's page keeper, fetching in the background meanwhile, neither shows nor uses up the message.
            browser.extraHeaders = ["X-Locify-Keeping": "1"]
            let kept = try await browser.get("/map")
            XCTAssertFalse(kept.text.contains("Added 12 sample contacts"))
            browser.extraHeaders = [:]
            let map = try await browser.get("/map")
            XCTAssertTrue(
                map.text.contains(
                    "Added 12 sample contacts with 10 addresses, 9 phone numbers, 14 reminders, 4 notes, 3 tasks and "
                        + "3 photos, and 14 saved places."), map.text)
            XCTAssertTrue(map.text.contains("14 places and 10 contact addresses."))

            // People with positions in several countries, given precisely (no city centres).
            let contacts = try await page("/api/contacts?limit=100", of: ContactResource.self)
            XCTAssertEqual(contacts.meta.total, 12)
            let addresses = try await page("/api/addresses?limit=100", of: AddressResource.self).data
            XCTAssertEqual(addresses.count, 10)
            XCTAssertEqual(Set(addresses.compactMap(\.country?.iso)).count, 9, "addresses in 9 countries")
            XCTAssertTrue(addresses.allSatisfy { $0.latitude != nil && $0.geocode.precision == "manual" })
            XCTAssertTrue(
                addresses.allSatisfy {
                    $0.mapLinks.geo.hasPrefix("geo:0,0?q=\(String(format: "%.4f", $0.latitude ?? 0))")
                },
                "maps apps get the pins, not an address to look up: \(addresses.map(\.mapLinks.geo))")
            // Reminders: every birthday's, and in the coming week three one-time ones and Noah's birthday, whatever
            // the day (the others' birthdays fall where the calendar puts them).
            let reminders = try await page("/api/reminders?limit=100", of: ReminderResource.self).data
            XCTAssertEqual(reminders.count, 14)
            let today = CalendarDate(clock.now, in: TimeZone(identifier: "UTC")!)
            let weekEnd = try XCTUnwrap(today.adding(days: 7))
            let thisWeek = reminders.filter {
                guard let date = CalendarDate(iso8601: $0.nextExpectedDate) else { return false }
                return !(date < today) && date < weekEnd
            }
            XCTAssertTrue(
                Set(thisWeek.map(\.title)).isSuperset(of: [
                    "Call Jonas about the flat in Kreuzberg", "Send Yuki the photos from Fushimi Inari",
                    "Finish the book club novel before Olivia's meeting", "Wish happy birthday to Noah",
                ]), thisWeek.map(\.title).description)
            XCTAssertFalse(thisWeek.contains { $0.nextExpectedDate == today.description }, "none rings at once")
            let rows1 = try await app.count(NotesTable.self)
            XCTAssertEqual(rows1, 4)
            let rows2 = try await app.count(TasksTable.self)
            XCTAssertEqual(rows2, 3)
            let rows3 = try await app.count(ContactFieldsTable.self)
            XCTAssertEqual(rows3, 12 + 9, "an e-mail each, 9 phone numbers")
            // Photos: real PNGs, each its contact's avatar; the others keep initials (or a Gravatar).
            let photos = try await page("/api/photos?limit=100", of: PhotoResource.self).data
            XCTAssertEqual(photos.count, 3)
            for photo in photos {
                let bytes = try XCTUnwrap(Data(base64Encoded: String(photo.dataURL.split(separator: ",")[1])))
                let info = try XCTUnwrap(ImageInfo([UInt8](bytes)))
                XCTAssertEqual([info.format.mimeType, "\(info.width)×\(info.height)"], ["image/png", "192×192"])
            }
            let avatars = try await app.db.plainRows(
                #"SELECT COUNT(*) FROM "contacts" WHERE "avatar_choice" = 'photo' AND "avatar_photo_id" IS NOT NULL"#,
                columns: ["n"])
            XCTAssertEqual(try avatars.first?.requiredInteger(0), 3)
            // Places in every category, favorites among them, in four cities.
            let categories = try await app.send(.GET, "/api/categories", headers: bearer)
                .decoded(PlaceCategoryListResource.self)
            XCTAssertEqual(categories.data.count, 4)
            XCTAssertTrue(categories.data.allSatisfy { $0.placesCount >= 2 }, "\(categories.data)")
            XCTAssertEqual(categories.favoritesCount, 5)
            let places = try await page("/api/places?limit=100", of: PlaceResource.self).data
            XCTAssertEqual(places.count, 14)
            let cities = Set(places.compactMap { $0.address?.split(separator: " ").last.map(String.init) })
            XCTAssertTrue(cities.isSuperset(of: ["Lyon", "Berlin", "Kyoto"]), "\(cities)")

            // Offered once: a second press adds nothing, and the page offers the removal instead.
            start = try await browser.get("/start")
            XCTAssertTrue(start.text.contains(">Remove sample data</button>"))
            XCTAssertFalse(start.text.contains("Fill with sample data"))
            let again = try await browser.post("/start/sample-data", form: [:])
            XCTAssertEqual(again.headers.first(name: .location), "/start#sample-data")
            let rows4 = try await app.count(ContactsTable.self)
            XCTAssertEqual(rows4, 12)
            let rows5 = try await app.count(PlacesTable.self)
            XCTAssertEqual(rows5, 14)

            // The person's own contact and place stay; the sample goes with everything added to it.
            let mine = try await app.send(
                .POST, "/api/contacts", headers: bearer, json: #"{"first_name":"Mine","is_birthdate_known":false}"#)
            XCTAssertEqual(mine.status, .created)
            let ownPlace = try await app.send(
                .POST, "/api/places", headers: bearer,
                json: #"{"name":"My bakery","latitude":48.85,"longitude":2.35,"category_id":\#(categories.data[0].id)}"#
            )
            XCTAssertEqual(ownPlace.status, .created)
            let before = try await app.send(.GET, "/api/sync", headers: bearer).decoded(SyncPullResource.self)
            var cursor = before.cursor
            var pulled = before
            while pulled.hasMore {
                pulled = try await app.send(.GET, "/api/sync?cursor=\(cursor)", headers: bearer)
                    .decoded(SyncPullResource.self)
                cursor = pulled.cursor
            }
            let removed = try await browser.post("/start/sample-data/remove", form: [:])
            XCTAssertEqual(removed.headers.first(name: .location), "/start#sample-data")
            let afterRemoval = try await browser.get("/start")
            XCTAssertTrue(afterRemoval.text.contains("Removed 12 sample contacts and 14 sample places."))
            XCTAssertFalse(afterRemoval.text.contains(#"id="sample-data""#), "not empty: nothing more to offer")
            let left = try await page("/api/contacts?limit=100", of: ContactResource.self).data
            XCTAssertEqual(left.map(\.firstName), ["Mine"])
            let placesLeft = try await page("/api/places?limit=100", of: PlaceResource.self).data
            XCTAssertEqual(placesLeft.map(\.name), ["My bakery"])
            for table in [
                AddressesTable.name, RemindersTable.name, NotesTable.name, TasksTable.name, PhotosTable.name,
                PhotoBlobsTable.name, SampleRecordsTable.name,
            ] {
                let rows = try await app.db.plainRows(#"SELECT COUNT(*) FROM "\#(unsafeRaw: table)""#, columns: ["n"])
                XCTAssertEqual(try rows.first?.requiredInteger(0), 0, table)
            }
            // Devices hear of every removed contact and place.
            let changes = try await app.send(.GET, "/api/sync?cursor=\(cursor)&limit=1000", headers: bearer)
                .decoded(SyncPullResource.self)
            XCTAssertEqual(changes.deletions.filter { $0.type == "contact" }.count, 12)
            XCTAssertEqual(changes.deletions.filter { $0.type == "place" }.count, 14)
        }
    }

    func testTheCommandLineFillsWhatIsMissingAndRemovesTheSampleAlone() async throws {
        try await forEachDatabase { app, _, _ in
            try await LocifyApp.createUser(in: app, email: "cli@example.com", name: "Cli User", password: "long enough")
            let people = try await LocifyApp.fillWithSampleData(in: app, email: "cli@example.com", peopleOnly: true)
            XCTAssertEqual(people, "Added 12 sample contacts.")
            let rows6 = try await app.count(AddressesTable.self)
            XCTAssertEqual(rows6, 0, "the people alone")
            let rows7 = try await app.count(PlacesTable.self)
            XCTAssertEqual(rows7, 0)
            let rest = try await LocifyApp.fillWithSampleData(in: app, email: "cli@example.com")
            XCTAssertEqual(rest, "Added 0 sample contacts, and 14 saved places (12 already there).")
            let again = try await LocifyApp.fillWithSampleData(in: app, email: "cli@example.com")
            XCTAssertEqual(again, "Added 0 sample contacts (12 already there).")
            let rows8 = try await app.count(PlacesTable.self)
            XCTAssertEqual(rows8, 14)
            let removed = try await LocifyApp.removeSampleData(in: app, email: "cli@example.com")
            XCTAssertEqual(removed, "Removed 12 sample contacts and 14 sample places.")
            let rows9 = try await app.count(ContactsTable.self)
            XCTAssertEqual(rows9, 0)
            // Two presses at once add everything once, and two removals at once take it away once.
            async let first = LocifyApp.fillWithSampleData(in: app, email: "cli@example.com")
            async let second = LocifyApp.fillWithSampleData(in: app, email: "cli@example.com")
            let fills = try await [first, second]
            let added = fills.compactMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
            XCTAssertEqual(added.reduce(0, +), 12, "between them, each person once: \(fills)")
            let contactsAfterTwoFills = try await app.count(ContactsTable.self)
            let placesAfterTwoFills = try await app.count(PlacesTable.self)
            XCTAssertEqual([contactsAfterTwoFills, placesAfterTwoFills], [12, 14])
            async let removal = LocifyApp.removeSampleData(in: app, email: "cli@example.com")
            async let secondRemoval = LocifyApp.removeSampleData(in: app, email: "cli@example.com")
            _ = try await [removal, secondRemoval]
            let contactsLeft = try await app.count(ContactsTable.self)
            let recordsLeft = try await app.count(SampleRecordsTable.self)
            XCTAssertEqual([contactsLeft, recordsLeft], [0, 0])
            await assertThrowsAsync(try await LocifyApp.fillWithSampleData(in: app, email: "nobody@example.com")) {
                XCTAssertEqual(
                    ($0 as? CommandFailure)?.description,
                    "No account has the email nobody@example.com. Create it first with `locify user create`.")
            }
        }
    }
}
