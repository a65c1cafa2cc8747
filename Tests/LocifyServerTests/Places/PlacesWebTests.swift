import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// The places pages: the form, the categories, the lists, the place page, the map home.
final class PlacesWebTests: XCTestCase {
    private static let lyon = GeocodingResult(
        coordinate: Coordinate(latitude: 45.7578, longitude: 4.8320), displayName: "Lyon, France", countryCode: "FR",
        precision: .city, source: "stub")

    func testAPlaceIsAddedWithANewCategoryFavoritedEditedAndDeleted() async throws {
        try await forEachDatabase { app, _, database in
            app.dependencies.geocoder = StubGeocoder { $0.text == "Lyon" ? [Self.lyon] : [] }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")

            // The search offers the geocoder's answers; one fills the form and shows a static preview.
            let search = try await browser.get("/places/new?q=Lyon")
            XCTAssertEqual(search.status, .ok, "\(database)")
            let use = "/places/new?name=Lyon&amp;address=Lyon,%20France&amp;lat=45.7578&amp;lon=4.832"
            XCTAssertTrue(search.text.contains(#"<a href="\#(use)">Lyon, France</a>"#), search.text)
            let chosen = try await browser.get("/places/new?name=Lyon&address=Lyon,%20France&lat=45.7578&lon=4.832")
            XCTAssertTrue(chosen.text.contains(#"id="latitude" name="latitude" type="text""#))
            XCTAssertTrue(chosen.text.contains(#"value="45.7578""#))
            XCTAssertTrue(chosen.text.contains(#"src="/maps/static.svg?lat=45.7578&amp;lon=4.832&amp;zoom=15""#))
            XCTAssertTrue(chosen.text.contains(#"data-pick="latitude,longitude""#))

            // Every problem at once, nothing saved: not even the new category.
            let refused = try await browser.post(
                "/places",
                form: ["name": "", "latitude": "north", "longitude": "200", "new_category": "Weekend trips"])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            for message in [
                "Name is required.", "Latitude must be a number, like 48.8584.",
                "Longitude must be between -180 and 180.",
            ] {
                XCTAssertTrue(refused.text.contains(message), message)
            }
            XCTAssertTrue(refused.text.contains(#"value="Weekend trips""#), "typed values are kept")
            let untouched = try await app.placeCategories(of: account).map(\.name)
            XCTAssertEqual(untouched.sorted(), PlaceCategory.defaults.sorted())
            let duplicate = try await browser.post(
                "/places", form: ["name": "Lyon", "latitude": "45.7578", "longitude": "4.832", "new_category": "CAFE"])
            XCTAssertEqual(duplicate.status, .unprocessableEntity)
            XCTAssertTrue(duplicate.text.contains("You already have a category named “CAFE”."), duplicate.text)

            let created = try await browser.post(
                "/places",
                form: [
                    "name": "Lyon", "address": "Lyon, France", "latitude": "45,7578", "longitude": "4.832",
                    "new_category": "Weekend trips", "notes": "Traboules",
                ])
            XCTAssertEqual(created.status, .seeOther, created.text)
            let awaited1 = try await app.places(of: account).first
            let saved = try XCTUnwrap(awaited1)
            XCTAssertEqual(created.headers.first(name: .location), "/places/\(saved.id)")
            XCTAssertEqual(saved.category.name, "Weekend trips")
            XCTAssertEqual(saved.latitude, 45.7578, "a decimal comma is read as a point")
            XCTAssertFalse(saved.isFavorite)

            var page = try await browser.get("/places/\(saved.id)")
            XCTAssertTrue(page.text.contains("“Lyon” was saved."))
            XCTAssertTrue(page.text.contains(#"<dd id="place-coordinates">45.7578, 4.832</dd>"#), page.text)
            XCTAssertTrue(page.text.contains("Directions in OpenStreetMap"))
            XCTAssertTrue(page.text.contains(#"href="geo:0,0?q=45.7578,4.832(Lyon)""#))
            XCTAssertTrue(
                page.text.contains("Lyon\nLyon, France\n45.7578,4.832\nTraboules\nhttps://www.openstreetmap.org/"))
            XCTAssertTrue(page.text.contains("data-centre-first"))

            _ = try await browser.post("/places/\(saved.id)/favorite", form: ["favorite": "true"])
            page = try await browser.get("/places/\(saved.id)")
            XCTAssertTrue(page.text.contains("“Lyon” is one of your favorites."))
            XCTAssertTrue(page.text.contains(#"aria-pressed="true""#))
            let favorites = try await browser.get("/places/favorites")
            XCTAssertTrue(
                favorites.text.contains(#"<p class="summary" id="places-summary" data-offline-summary>1 place.</p>"#),
                favorites.text)

            // Editing keeps the favorite (the page's own button) and can make another category inline.
            let edit = try await browser.get("/places/\(saved.id)/edit")
            XCTAssertTrue(edit.text.contains(#"value="Traboules""#) || edit.text.contains(">Traboules</textarea>"))
            _ = try await browser.post(
                "/places/\(saved.id)/edit",
                form: [
                    "name": "Vieux Lyon", "latitude": "45.7622", "longitude": "4.8270", "category_id": "",
                    "new_category": "Old towns", "notes": "",
                ])
            let edited = try await app.send(.GET, "/api/places/\(saved.id)", headers: account.bearer)
                .decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertEqual(edited.name, "Vieux Lyon")
            XCTAssertEqual(edited.category.name, "Old towns")
            XCTAssertTrue(edited.isFavorite)
            XCTAssertNil(edited.notes)
            XCTAssertNil(edited.address, "an emptied field is emptied")

            // Another person's place is not found, and not changed.
            let other = WebClient(app: app)
            _ = try await other.register(email: "ada@example.com")
            let awaited2 = try await other.get("/places/\(saved.id)").status
            XCTAssertEqual(awaited2, .notFound)
            let awaited3 = try await other.post("/places/\(saved.id)/delete", form: [:]).status
            XCTAssertEqual(awaited3, .notFound)

            let confirm = try await browser.get("/places/\(saved.id)/delete")
            XCTAssertTrue(confirm.text.contains("Delete “Vieux Lyon”?"))
            let deleted = try await browser.post("/places/\(saved.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            XCTAssertEqual(deleted.headers.first(name: .location), "/places/categories/\(edited.category.id)")
            let awaited4 = try await app.places(of: account).count
            XCTAssertEqual(awaited4, 0)
        }
    }

    /// A point the map names ("a cafe") comes to the add form with its category chosen, and the form says why.
    func testTheMapsKindOfAPlaceChoosesItsCategory() async throws {
        try await forEachDatabase { app, _, database in
            app.dependencies.geocoder = StubGeocoder { _ in
                [
                    GeocodingResult(
                        coordinate: Coordinate(latitude: 45.7687, longitude: 4.8346), displayName: "Café Mokxa, Lyon",
                        countryCode: "FR", precision: .building, source: "nominatim", placeKind: "cafe")
                ]
            }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let search = try await browser.get("/places/new?q=Mokxa")
            let link =
                "/places/new?name=Caf%C3%A9%20Mokxa&amp;address=Caf%C3%A9%20Mokxa,%20Lyon&amp;lat=45.7687&amp;lon=4.8346&amp;kind=cafe"
            XCTAssertTrue(search.text.contains(link), "\(database): \(search.text)")
            let form = try await browser.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            let account = try await app.apiAccount(email: "grace@example.com")
            let categories = try await app.placeCategories(of: account)
            let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
            XCTAssertTrue(form.text.contains(#"<option value="\#(cafe.id)" selected>Cafe</option>"#), form.text)
            XCTAssertTrue(form.text.contains("Suggested: the map calls it a cafe."), form.text)
            let unknown = try await browser.get("/places/new?name=Town%20hall&lat=45&lon=4&kind=townhall")
            XCTAssertFalse(unknown.text.contains(#"selected>Cafe</option>"#), "\(database): no kind, no guess")
            XCTAssertFalse(unknown.text.contains("Suggested:"))
            let chosen = try await browser.get("/places/new?name=X&lat=45&lon=4&kind=cafe&category_id=999")
            XCTAssertFalse(chosen.text.contains("Suggested:"), "a category already chosen stays")
        }
    }

    /// The form rates a place; its page and the lists show the stars, and a list sorts and filters by them.
    func testAPlaceIsRatedOnTheFormAndListsShowSortAndFilterByStars() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let form = try await browser.get("/places/new")
            XCTAssertTrue(form.text.contains(#"<option value="4">4 stars</option>"#), "\(database): \(form.text)")
            let refused = try await browser.post(
                "/places",
                form: [
                    "name": "Les Halles", "latitude": "45.76", "longitude": "4.84", "new_category": "Markets",
                    "rating": "lots",
                ])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("Rating must be from 1 to 5 stars, or none."), refused.text)
            let rated = try await browser.post(
                "/places",
                form: [
                    "name": "Les Halles", "latitude": "45.76", "longitude": "4.84", "new_category": "Markets",
                    "rating": "4",
                ])
            XCTAssertEqual(rated.status, .seeOther, rated.text)
            let place = try await browser.get(try XCTUnwrap(rated.headers.first(name: .location)))
            XCTAssertTrue(
                place.text.contains(
                    #"<dt>Rating</dt><dd class="rating"><span aria-hidden="true">★★★★☆</span><span class="visually-hidden">4 stars</span></dd>"#
                ), place.text)
            let saved = try await app.places(of: account)
            let halles = try XCTUnwrap(saved.first)
            XCTAssertEqual(halles.rating, 4)
            let edit = try await browser.get("/places/\(halles.id)/edit")
            XCTAssertTrue(edit.text.contains(#"<option value="4" selected>4 stars</option>"#), edit.text)
            let unrated = try await browser.post(
                "/places",
                form: [
                    "name": "Parc", "latitude": "45.77", "longitude": "4.85", "category_id": String(halles.categoryID),
                    "rating": "",
                ])
            XCTAssertEqual(unrated.status, .seeOther, unrated.text)

            let list = "/places/categories/\(halles.categoryID)"
            let best = try await browser.get(list + "?sort=rating")
            XCTAssertEqual(best.status, .ok, best.text)
            let halle = try XCTUnwrap(best.text.range(of: "Les Halles"))
            let parc = try XCTUnwrap(best.text.range(of: "<strong data-sync-field=\"name\">Parc"))
            XCTAssertLessThan(halle.lowerBound, parc.lowerBound, "\(database): the rated place first")
            XCTAssertTrue(best.text.contains(#"<span class="rating" title="4 stars">"#))
            let filtered = try await browser.get(list + "?min_rating=3")
            XCTAssertTrue(filtered.text.contains("1 place."), filtered.text)
            XCTAssertTrue(filtered.text.contains(#"<option value="3" selected>3 stars or more</option>"#))
            XCTAssertFalse(filtered.text.contains(">Parc<"))
        }
    }

    func testCategoriesAreAddedRenamedInlineAndDeletedMovingTheirPlaces() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            var page = try await browser.get("/places")
            XCTAssertTrue(page.text.contains("★ Favorites"))
            let order = ["★ Favorites", ">Cafe<", ">Other<", ">Restaurant<", ">Tourist Attraction<"].map {
                page.text.range(of: $0)?.lowerBound
            }
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "Favorites first, then by name")
            XCTAssertEqual(order.compactMap { $0 }.count, 5)

            let refused = try await browser.post("/places/categories", form: ["name": "restaurant"])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("You already have a category named “restaurant”."))
            _ = try await browser.post("/places/categories", form: ["name": "Bakeries"])
            let awaited5 = try await app.placeCategories(of: account).first { $0.name == "Bakeries" }
            let bakeries = try XCTUnwrap(awaited5)
            let awaited6 = try await app.placeCategories(of: account).first { $0.name == "Cafe" }
            let cafe = try XCTUnwrap(awaited6)

            // Renamed in place; a clash is said beside that category's field.
            let clash = try await browser.post("/places/categories/\(bakeries.id)/rename", form: ["name": "CAFE"])
            XCTAssertEqual(clash.status, .unprocessableEntity)
            XCTAssertTrue(
                clash.text.contains(#"<p class="error" id="category-\#(bakeries.id)-name-error">"#), clash.text)
            let renamed = try await browser.post(
                "/places/categories/\(bakeries.id)/rename", form: ["name": "Boulangeries"])
            XCTAssertEqual(renamed.status, .seeOther)
            page = try await browser.get("/places")
            XCTAssertTrue(page.text.contains("“Bakeries” is now called “Boulangeries”."))

            let json = #"{"name": "Du Pain", "latitude": 48.87, "longitude": 2.36, "category_id": \#(bakeries.id)}"#
            _ = try await app.send(.POST, "/api/places", headers: account.bearer, json: json)
            let ask = try await browser.get("/places/categories/\(bakeries.id)/delete")
            XCTAssertTrue(ask.text.contains("It holds 1 place."))
            XCTAssertTrue(ask.text.contains(#"<option value="\#(cafe.id)">Cafe</option>"#))
            let unchosen = try await browser.post("/places/categories/\(bakeries.id)/delete", form: ["move_to": ""])
            XCTAssertEqual(unchosen.status, .unprocessableEntity)
            XCTAssertTrue(unchosen.text.contains("Choose the category that receives its places."))
            let awaited7 = try await app.placeCategories(of: account).count
            XCTAssertEqual(awaited7, 5, "nothing deleted")
            let moved = try await browser.post(
                "/places/categories/\(bakeries.id)/delete", form: ["move_to": String(cafe.id)])
            XCTAssertEqual(moved.status, .seeOther)
            page = try await browser.get("/places")
            XCTAssertTrue(page.text.contains("The category “Boulangeries” was deleted. Its places are now in “Cafe”."))
            let awaited8 = try await app.places(of: account).map(\.category.name)
            XCTAssertEqual(awaited8, ["Cafe"])

            // The last category stays.
            for category in try await app.placeCategories(of: account) where category.id != cafe.id {
                _ = try await browser.post(
                    "/places/categories/\(category.id)/delete", form: ["move_to": String(cafe.id)])
            }
            let last = try await browser.get("/places/categories/\(cafe.id)/delete")
            XCTAssertTrue(last.text.contains("This is your only category"), last.text)
            let kept = try await browser.post("/places/categories/\(cafe.id)/delete", form: [:])
            XCTAssertEqual(kept.status, .unprocessableEntity)
            let awaited9 = try await app.placeCategories(of: account).map(\.name)
            XCTAssertEqual(awaited9, ["Cafe"])
        }
    }

    func testACategoryListSearchesSortsAndFiltersByDistance() async throws {
        try await forEachDatabase { app, _, _ in
            app.dependencies.geocoder = StubGeocoder { $0.text == "Lyon" ? [Self.lyon] : [] }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let awaited10 = try await app.placeCategories(of: account).first { $0.name == "Restaurant" }
            let category = try XCTUnwrap(awaited10)
            // Kilometres from Lyon's centre, worked out here: 0.5, 3.9 and about 392 (Paris).
            for (name, latitude, longitude, notes) in [
                ("Paul Bocuse", 45.8145, 4.8820, "Collonges"), ("Le Sud", 45.7623, 4.8335, "Brasserie"),
                ("Septime", 48.8533, 2.3808, "Bistronomie"),
            ] {
                let json =
                    #"{"name": "\#(name)", "latitude": \#(latitude), "longitude": \#(longitude), "category_id": \#(category.id), "notes": "\#(notes)"}"#
                _ = try await app.send(.POST, "/api/places", headers: account.bearer, json: json)
            }
            func names(_ path: String) async throws -> [String] {
                let page = try await browser.get(path)
                XCTAssertEqual(page.status, .ok, page.text)
                return page.text.components(separatedBy: "<a href=\"/places/").dropFirst().compactMap {
                    $0.components(separatedBy: #"<strong data-sync-field="name">"#).dropFirst().first?
                        .components(separatedBy: "</strong>").first
                }
            }
            let base = "/places/categories/\(category.id)"
            // The list first: the filters folded above it, open when they are in use or say a problem.
            let plain = try await browser.get(base)
            XCTAssertTrue(plain.text.contains(#"<details class="filters">"#), plain.text)
            let filtered = try await browser.get(base + "?q=sud")
            XCTAssertTrue(filtered.text.contains(#"<details class="filters" open>"#))
            let byName = try await names(base)
            XCTAssertEqual(byName, ["Le Sud", "Paul Bocuse", "Septime"])
            let near = try await names(base + "?near=Lyon&sort=distance")
            XCTAssertEqual(near, ["Le Sud", "Paul Bocuse", "Septime"])
            let close = try await browser.get(base + "?near=Lyon&within_km=10&sort=distance")
            XCTAssertTrue(close.text.contains("2 places within 10 km of Lyon."), close.text)
            XCTAssertTrue(close.text.contains("Restaurant · 510 m"), close.text)
            let typed = try await browser.get(base + "?near=48.85,2.38&within_km=5")
            XCTAssertTrue(typed.text.contains("1 place within 5 km of 48.85,2.38."), typed.text)
            let awaited11 = try await names(base + "?q=BRASSERIE")
            XCTAssertEqual(awaited11, ["Le Sud"])
            let awaited12 = try await names(base + "?sort=newest")
            XCTAssertEqual(awaited12, ["Septime", "Le Sud", "Paul Bocuse"])
            let nowhere = try await browser.get(base + "?near=Atlantis")
            XCTAssertTrue(nowhere.text.contains("“Atlantis” could not be found on the map"), nowhere.text)
            let pointless = try await browser.get(base + "?sort=distance")
            XCTAssertTrue(pointless.text.contains("Sorting by distance needs a point"))
            XCTAssertTrue(pointless.text.contains(#"<details class="filters" open>"#), "a problem shows at once")
            let awaited13 = try await browser.get("/places/categories/999999").status
            XCTAssertEqual(awaited13, .notFound)
        }
    }

    func testTheMapHomeShowsPlacesContactsAndSearchResults() async throws {
        try await forEachDatabase { app, _, _ in
            app.dependencies.geocoder = StubGeocoder { $0.text.lowercased().contains("lyon") ? [Self.lyon] : [] }
            let browser = WebClient(app: app)
            let registered = try await browser.register()
            XCTAssertEqual(registered.headers.first(name: .location), "/start", "a new account starts there")
            let home = try await browser.get("/")
            XCTAssertEqual(home.headers.first(name: .location), "/map", "the map is the home page")
            let account = try await app.apiAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lyon"))
            _ = try await app.send(
                .POST, "/api/addresses", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "name": "Home", "city": "Lyon", "country": "FR", "latitude": 45.76, "longitude": 4.83}"#
            )
            let awaited14 = try await app.placeCategories(of: account).first
            let category = try XCTUnwrap(awaited14)
            _ = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json:
                    #"{"name": "Halles de Lyon", "latitude": 45.7626, "longitude": 4.8503, "category_id": \#(category.id)}"#
            )

            var map = try await browser.get("/map")
            XCTAssertTrue(map.text.contains("1 place and 1 contact address."), map.text)
            XCTAssertTrue(map.text.contains("&quot;layer&quot;:&quot;places&quot;"))
            XCTAssertTrue(map.text.contains("&quot;layer&quot;:&quot;contacts&quot;"))
            XCTAssertTrue(map.text.contains(#"data-explore="/map/point""#) && map.text.contains("data-locate"))
            map = try await browser.get("/map?contacts=off")
            XCTAssertFalse(map.text.contains("&quot;layer&quot;:&quot;contacts&quot;"))
            XCTAssertTrue(map.text.contains(">Show contacts' addresses</a>"))

            map = try await browser.get("/map?q=lyon&near=45.7626,4.8503")
            // The place is where the search is made from; Lyon's centre is 1.5 km away, Ada's home 1.6 km.
            let kinds = ["Your place", "Found on the map", "Contact&#39;s address"].map {
                map.text.range(of: $0)?.lowerBound
            }
            XCTAssertEqual(kinds.compactMap { $0 }.count, 3, map.text)
            XCTAssertEqual(kinds.compactMap { $0 }, kinds.compactMap { $0 }.sorted(), "nearest first")
            // Map first: the results highlighted on it (numbered as listed), the map opening on them, and the
            // list a sheet under the map.
            XCTAssertTrue(map.text.contains(#"data-focus="results""#), map.text)
            XCTAssertTrue(map.text.contains("&quot;label&quot;:&quot;1. "), map.text)
            XCTAssertTrue(map.text.contains("&quot;layer&quot;:&quot;results&quot;"))
            let mapAt = try XCTUnwrap(map.text.range(of: #"id="home-map""#)?.lowerBound)
            let sheetAt = try XCTUnwrap(map.text.range(of: #"class="search-results sheet""#)?.lowerBound)
            XCTAssertLessThan(mapAt, sheetAt)
            XCTAssertTrue(
                map.text.contains("/places/new?name=Lyon&amp;address=Lyon,%20France&amp;lat=45.7578&amp;lon=4.832"))

            let point = try await browser.get("/map/point?lat=45.7578&lon=4.832")
            XCTAssertEqual(point.status, .ok)
            XCTAssertTrue(point.text.contains("Dropped pin"), "the stub geocoder knows no reverse answer")
            XCTAssertTrue(point.text.contains(#"href="/places/new?lat=45.7578&amp;lon=4.832""#), point.text)
            let awaited15 = try await browser.get("/map/point?lat=91&lon=0").status
            XCTAssertEqual(awaited15, .notFound)

            let picture = try await browser.get("/maps/static.svg?lat=45.7578&lon=4.832&zoom=15")
            XCTAssertEqual(picture.status, .ok)
            XCTAssertEqual(picture.headers.contentType?.description, "image/svg+xml")
            XCTAssertTrue(picture.text.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="240""#))
            XCTAssertTrue(picture.text.contains(#"<g transform="translate(240 120)">"#), "the pin is in the middle")
            XCTAssertTrue(picture.text.hasSuffix("</svg>"))
            let awaited16 = try await browser.get("/maps/static.svg?lat=north&lon=4").status
            XCTAssertEqual(awaited16, .unprocessableEntity)
            let awaited17 = try await app.send(.GET, "/maps/static.svg?lat=1&lon=1").status
            XCTAssertEqual(awaited17, .unauthorized)
        }
    }

    /// Every place page of one person answers another with 404, and changes nothing.
    func testAnotherPersonsPlacesAndCategoriesAreNotFound() async throws {
        try await forEachDatabase { app, _, _ in
            let owner = WebClient(app: app)
            _ = try await owner.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let categories = try await app.placeCategories(of: account)
            let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
            let other = try XCTUnwrap(categories.first { $0.name == "Other" })
            let created = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json: #"{"name": "Café de Flore", "latitude": 48.854, "longitude": 2.3325, "category_id": \#(cafe.id)}"#
            )
            let place = try created.decoded(DataEnvelope<PlaceResource>.self).data

            let stranger = WebClient(app: app)
            _ = try await stranger.register(email: "ada@example.com")
            for path in [
                "/places/\(place.id)", "/places/\(place.id)/edit", "/places/\(place.id)/delete",
                "/places/categories/\(cafe.id)", "/places/categories/\(cafe.id)/delete",
            ] {
                let page = try await stranger.get(path)
                XCTAssertEqual(page.status, .notFound, path)
            }
            _ = try await stranger.get("/places")
            for (path, form) in [
                (
                    "/places/\(place.id)/edit",
                    ["name": "Mine", "latitude": "1", "longitude": "1", "category_id": "\(cafe.id)"]
                ),
                ("/places/\(place.id)/favorite", ["favorite": "true"]), ("/places/\(place.id)/delete", [:]),
                ("/places/categories/\(cafe.id)/rename", ["name": "Mine"]),
                ("/places/categories/\(cafe.id)/delete", ["move_to": "\(other.id)"]),
            ] {
                let refused = try await stranger.post(path, form: form)
                XCTAssertEqual(refused.status, .notFound, path)
            }
            // A stranger cannot put a place of theirs into the owner's category either.
            let foreign = try await stranger.post(
                "/places", form: ["name": "Sneaky", "latitude": "1", "longitude": "1", "category_id": "\(cafe.id)"])
            XCTAssertEqual(foreign.status, .unprocessableEntity)
            XCTAssertTrue(foreign.text.contains("category_id must be one of your categories."), foreign.text)
            let after = try await app.send(.GET, "/api/places/\(place.id)", headers: account.bearer)
                .decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertEqual(after.name, "Café de Flore")
            XCTAssertFalse(after.isFavorite)
            XCTAssertEqual(after.category.name, "Cafe")
            let names = try await app.placeCategories(of: account).map(\.name)
            XCTAssertEqual(names.sorted(), PlaceCategory.defaults.sorted())
        }
    }
}
