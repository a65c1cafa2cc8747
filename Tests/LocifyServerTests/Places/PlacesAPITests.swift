import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class PlacesAPITests: XCTestCase {
    private func categories(_ app: Application, _ account: TestAccount) async throws -> PlaceCategoryListResource {
        try await app.send(.GET, "/api/categories", headers: account.bearer).decoded(PlaceCategoryListResource.self)
    }

    private func create(
        _ app: Application, _ account: TestAccount, _ json: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> PlaceResource {
        let response = try await app.send(.POST, "/api/places", headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<PlaceResource>.self, file: file, line: line).data
    }

    private func list(_ app: Application, _ account: TestAccount, _ query: String) async throws -> PageResource<
        PlaceResource
    > {
        let response = try await app.send(.GET, "/api/places?" + query, headers: account.bearer)
        XCTAssertEqual(response.status, .ok, "\(query): \(response.text)")
        return try response.decoded(PageResource<PlaceResource>.self)
    }

    func testCategoriesStartWithTheDefaultsAndFollowTheRules() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let start = try await categories(app, account)
            XCTAssertEqual(
                start.data.map(\.name), ["Cafe", "Other", "Restaurant", "Tourist Attraction"], "\(database)")
            XCTAssertEqual(start.favoritesCount, 0)
            let created = try await app.send(
                .POST, "/api/categories", headers: account.bearer, json: #"{"name": " Bakeries "}"#)
            XCTAssertEqual(created.status, .created)
            let bakeries = try created.decoded(DataEnvelope<PlaceCategoryResource>.self).data
            XCTAssertEqual(bakeries.name, "Bakeries")
            for json in [#"{"name": ""}"#, "{}", #"{"name": "\#(String(repeating: "x", count: 101))"}"#] {
                let refused = try await app.send(.POST, "/api/categories", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
            }
            // A name already taken (ignoring case) is well-formed input that clashes with what is stored.
            let taken = try await app.send(
                .POST, "/api/categories", headers: account.bearer, json: #"{"name": "CAFE"}"#)
            XCTAssertEqual(taken.status, .conflict, taken.text)
            let renamed = try await app.send(
                .PUT, "/api/categories/\(bakeries.id)", headers: account.bearer, json: #"{"name": "bakeries"}"#)
            XCTAssertEqual(renamed.status, .ok, "its own name in another case is fine: \(renamed.text)")
            let clash = try await app.send(
                .PUT, "/api/categories/\(bakeries.id)", headers: account.bearer, json: #"{"name": "other"}"#)
            XCTAssertEqual(clash.status, .conflict)
            // Another account has its own defaults and cannot touch these.
            let other = try await app.makeAccount(email: "eve@example.com")
            let theirs = try await categories(app, other)
            XCTAssertEqual(theirs.data.count, 4)
            let foreign = try await app.send(
                .PUT, "/api/categories/\(bakeries.id)", headers: other.bearer, json: #"{"name": "Mine"}"#)
            XCTAssertEqual(foreign.status, .notFound)
            let foreignDelete = try await app.send(.DELETE, "/api/categories/\(bakeries.id)", headers: other.bearer)
            XCTAssertEqual(foreignDelete.status, .notFound)
        }
    }

    func testDeletingACategoryMovesItsPlacesOrSaysWhy() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let all = try await categories(app, account).data
            let cafe = try XCTUnwrap(all.first { $0.name == "Cafe" })
            let other = try XCTUnwrap(all.first { $0.name == "Other" })
            let place = try await create(
                app, account,
                #"{"name": "Café de Flore", "latitude": 48.854, "longitude": 2.3325, "category_id": \#(cafe.id)}"#)
            let refused = try await app.send(.DELETE, "/api/categories/\(cafe.id)", headers: account.bearer)
            XCTAssertEqual(refused.status, .conflict, "\(database)")
            XCTAssertTrue(refused.text.contains("move_to"), refused.text)
            let toItself = try await app.send(
                .DELETE, "/api/categories/\(cafe.id)?move_to=\(cafe.id)", headers: account.bearer)
            XCTAssertEqual(toItself.status, .conflict)
            let moved = try await app.send(
                .DELETE, "/api/categories/\(cafe.id)?move_to=\(other.id)", headers: account.bearer)
            XCTAssertEqual(moved.status, .ok, moved.text)
            let after = try await app.send(.GET, "/api/places/\(place.id)", headers: account.bearer)
                .decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertEqual(after.categoryID, other.id)
            XCTAssertEqual(after.category.name, "Other")
            let counts = try await categories(app, account).data
            XCTAssertEqual(counts.first { $0.id == other.id }?.placesCount, 1)
            // Empty categories go without move_to; the last one stays.
            for category in counts where category.id != other.id {
                let deleted = try await app.send(.DELETE, "/api/categories/\(category.id)", headers: account.bearer)
                XCTAssertEqual(deleted.status, .ok)
            }
            let last = try await app.send(.DELETE, "/api/categories/\(other.id)", headers: account.bearer)
            XCTAssertEqual(last.status, .conflict, "well-formed, but every place needs a category")
            XCTAssertTrue(last.text.contains("last category"), last.text)
        }
    }

    /// A rating is 1 to 5 stars or none; lists sort by it (none below one star) and keep those with at
    /// least so many, however the list is narrowed.
    func testARatingIsOneToFiveStarsAndListsSortAndFilterByIt() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let start = try await categories(app, account)
            let cafe = try XCTUnwrap(start.data.first { $0.name == "Cafe" })
            func place(_ name: String, _ rating: String) async throws -> PlaceResource {
                try await create(
                    app, account,
                    #"{"name": "\#(name)", "latitude": 48.85, "longitude": 2.35, "category_id": \#(cafe.id), "rating": \#(rating)}"#
                )
            }
            let flore = try await place("Flore cafe", "5")
            let deux = try await place("Deux Magots cafe", #""3""#)
            let unrated = try await place("Procope cafe", "null")
            let good = try await place("Lipp cafe", #"" 4 ""#)
            XCTAssertEqual([flore.rating, deux.rating, unrated.rating, good.rating], [5, 3, nil, 4], "\(database)")
            for bad in ["0", "6", "2.5", #""many""#, "true"] {
                let refused = try await app.send(
                    .PUT, "/api/places/\(deux.id)", headers: account.bearer, json: #"{"rating": \#(bad)}"#)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): rating \(bad): \(refused.text)")
            }
            let cleared = try await app.send(
                .PUT, "/api/places/\(good.id)", headers: account.bearer, json: #"{"notes": "Choucroute"}"#)
            XCTAssertEqual(try cleared.decoded(DataEnvelope<PlaceResource>.self).data.rating, 4, "left out, kept")
            let none = try await app.send(
                .PUT, "/api/places/\(deux.id)", headers: account.bearer, json: #"{"rating": null}"#)
            XCTAssertNil(try none.decoded(DataEnvelope<PlaceResource>.self).data.rating, "null clears it")
            let rerated = try await app.send(
                .PUT, "/api/places/\(deux.id)", headers: account.bearer, json: #"{"rating": 2}"#)
            XCTAssertEqual(try rerated.decoded(DataEnvelope<PlaceResource>.self).data.rating, 2)

            // The database's pages, a text search's pages sorted here, and distance's: each sorts and filters.
            for narrowing in ["", "&q=cafe", "&near=48.85,2.35", "&category_id=\(cafe.id)"] {
                let best = try await list(app, account, "sort=-rating" + narrowing).data.map(\.name)
                XCTAssertEqual(
                    best, ["Flore cafe", "Lipp cafe", "Deux Magots cafe", "Procope cafe"], "\(database) \(narrowing)")
                let worst = try await list(app, account, "sort=rating" + narrowing).data.map(\.name)
                XCTAssertEqual(worst, best.reversed(), "\(database) \(narrowing)")
                let four = try await list(app, account, "min_rating=4&sort=name" + narrowing).data.map(\.name)
                XCTAssertEqual(four, ["Flore cafe", "Lipp cafe"], "\(database) \(narrowing)")
            }
            for bad in ["0", "6", "x"] {
                let refused = try await app.send(.GET, "/api/places?min_rating=\(bad)", headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): min_rating \(bad)")
                XCTAssertTrue(refused.text.contains("min_rating must be a number of stars from 1 to 5."))
            }
        }
    }

    func testAPlaceIsCheckedAndCarriesLinksAndShareText() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let start = try await categories(app, account)
            let cafe = try XCTUnwrap(start.data.first { $0.name == "Cafe" })
            let place = try await create(
                app, account,
                #"{"name": "Café de Flore", "address": "172 Bd Saint-Germain, Paris", "latitude": "48.854", "longitude": 2.3325, "notes": "Terrace", "category_id": "\#(cafe.id)", "is_favorite": "yes"}"#
            )
            XCTAssertEqual(place.category, .init(id: cafe.id, name: "Cafe"))
            XCTAssertTrue(place.isFavorite)
            XCTAssertEqual(place.latitude, 48.854)
            XCTAssertTrue(place.mapLinks.geo.hasPrefix("geo:"), place.mapLinks.geo)
            XCTAssertTrue(place.shareText.contains("Café de Flore"))
            XCTAssertNil(place.distanceKm)
            let shown = try await app.send(.GET, "/api/places/\(place.id)", headers: account.bearer)
            XCTAssertEqual(
                JSONKeyOrder.keys(of: shown.text, at: ["data"]),
                [
                    "id", "uuid", "object", "name", "address", "latitude", "longitude", "notes", "category_id",
                    "category",
                    "is_favorite", "rating", "source", "external_id", "precision", "map_links", "share_text",
                    "distance_km",
                    "url", "account",
                    "created_at", "updated_at",
                ])
            let refusals = [
                "{}", #"{"name": "x", "latitude": 91, "longitude": 0, "category_id": \#(cafe.id)}"#,
                #"{"name": "x", "latitude": 0, "longitude": -181, "category_id": \#(cafe.id)}"#,
                #"{"name": "x", "latitude": "north", "longitude": 0, "category_id": \#(cafe.id)}"#,
                #"{"name": "\#(String(repeating: "n", count: 201))", "latitude": 0, "longitude": 0, "category_id": \#(cafe.id)}"#,
            ]
            for json in refusals {
                let refused = try await app.send(.POST, "/api/places", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(json): \(refused.text)")
            }
            let unknownCategory = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json: #"{"name": "x", "latitude": 0, "longitude": 0, "category_id": 999999}"#)
            XCTAssertEqual(unknownCategory.status, .notFound, "\(database) \(unknownCategory.text)")
            XCTAssertTrue(unknownCategory.text.contains("category_id must be one of your categories."))
            let everything = try await app.send(.POST, "/api/places", headers: account.bearer, json: "{}")
            XCTAssertEqual(
                try everything.json()["error"].flatMap { ($0 as? [String: Any])?["message"] as? [String] }?.count, 4)
            // Updates change only what they send; favorites toggle.
            let updated = try await app.send(
                .PUT, "/api/places/\(place.id)", headers: account.bearer, json: #"{"notes": null}"#)
            let changed = try updated.decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertNil(changed.notes)
            XCTAssertEqual(changed.name, "Café de Flore")
            let unfavorite = try await app.send(.DELETE, "/api/places/\(place.id)/favorite", headers: account.bearer)
            XCTAssertFalse(try unfavorite.decoded(DataEnvelope<PlaceResource>.self).data.isFavorite)
            let favorite = try await app.send(.PUT, "/api/places/\(place.id)/favorite", headers: account.bearer)
            XCTAssertTrue(try favorite.decoded(DataEnvelope<PlaceResource>.self).data.isFavorite)
            let favoritesCount = try await categories(app, account).favoritesCount
            XCTAssertEqual(favoritesCount, 1)
            // Another account sees nothing of it.
            let other = try await app.makeAccount(email: "eve@example.com")
            for (method, path) in [
                (HTTPMethod.GET, "/api/places/\(place.id)"), (.PUT, "/api/places/\(place.id)"),
                (.DELETE, "/api/places/\(place.id)"), (.PUT, "/api/places/\(place.id)/favorite"),
                (.DELETE, "/api/places/\(place.id)/favorite"),
            ] {
                let response = try await app.send(method, path, headers: other.bearer, json: "{}")
                XCTAssertEqual(response.status, .notFound, "\(method) \(path)")
            }
            let theirs = try await list(app, other, "")
            XCTAssertEqual(theirs.meta.total, 0)
            let stolen = try await app.send(
                .POST, "/api/places", headers: other.bearer,
                json: #"{"name": "x", "latitude": 0, "longitude": 0, "category_id": \#(cafe.id)}"#)
            XCTAssertEqual(stolen.status, .notFound, "another account's category is not one of yours")
            let deleted = try await app.send(.DELETE, "/api/places/\(place.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
        }
    }

    func testFiltersAndSortsAgreeWithDistancesWorkedOutHere() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let all = try await categories(app, account).data
            let cafe = try XCTUnwrap(all.first { $0.name == "Cafe" })
            let sights = try XCTUnwrap(all.first { $0.name == "Tourist Attraction" })
            let points: [(String, Double, Double, Int, Bool, String?)] = [
                ("Louvre", 48.8606, 2.3376, sights.id, true, "Mona Lisa"),
                ("Tour Eiffel", 48.8584, 2.2945, sights.id, false, nil),
                ("Café Procope", 48.8530, 2.3388, cafe.id, false, "Oldest café"),
                ("Versailles", 48.8049, 2.1204, sights.id, false, nil),
                ("Big Ben", 51.5007, -0.1246, sights.id, true, nil),
                ("Fiji café", -17.7134, 178.0650, cafe.id, false, nil),
                ("Samoa market", -13.8333, -171.7667, cafe.id, false, nil),
            ]
            for (name, latitude, longitude, category, favorite, notes) in points {
                let notesJSON = notes.map { #""\#($0)""# } ?? "null"
                _ = try await create(
                    app, account,
                    #"{"name": "\#(name)", "latitude": \#(latitude), "longitude": \#(longitude), "category_id": \#(category), "is_favorite": \#(favorite), "notes": \#(notesJSON)}"#
                )
            }
            let notreDame = Coordinate(latitude: 48.8530, longitude: 2.3499)
            func expectedNear(within km: Double) -> [String] {
                points.map { ($0.0, Geo.distance(notreDame, Coordinate(latitude: $0.1, longitude: $0.2)) / 1000) }
                    .filter { $0.1 <= km }.sorted { $0.1 < $1.1 }.map(\.0)
            }
            let near = try await list(app, account, "near=48.8530,2.3499&within_km=10&sort=distance")
            XCTAssertEqual(near.data.map(\.name), expectedNear(within: 10), "\(database)")
            XCTAssertEqual(near.meta.total, 3)
            for place in near.data {
                let exact =
                    Geo.distance(notreDame, Coordinate(latitude: place.latitude, longitude: place.longitude)) / 1000
                XCTAssertEqual(try XCTUnwrap(place.distanceKm), exact, accuracy: 0.001)
            }
            let wide = try await list(app, account, "near=48.8530,2.3499&within_km=30&sort=-distance&limit=2")
            XCTAssertEqual(wide.data.map(\.name), Array(expectedNear(within: 30).reversed().prefix(2)))
            XCTAssertEqual(wide.meta.total, 4)
            XCTAssertTrue(wide.links.next?.contains("within_km=30") ?? false, "\(String(describing: wide.links.next))")
            let byName = try await list(app, account, "sort=name")
            XCTAssertEqual(
                byName.data.map(\.name),
                points.map(\.0).sorted { TextFolding.searchKey([$0]) < TextFolding.searchKey([$1]) })
            let newest = try await list(app, account, "sort=-created_at&limit=1")
            XCTAssertEqual(newest.data.map(\.name), ["Samoa market"])
            let cafes = try await list(app, account, "category_id=\(cafe.id)&sort=name")
            XCTAssertEqual(cafes.data.map(\.name), ["Café Procope", "Fiji café", "Samoa market"])
            let favorites = try await list(app, account, "favorite=true&sort=name")
            XCTAssertEqual(favorites.data.map(\.name), ["Big Ben", "Louvre"])
            // Text ignores case and accents, in names and notes.
            let cafeText = try await list(app, account, "q=CAFE&sort=name")
            XCTAssertEqual(cafeText.data.map(\.name), ["Café Procope", "Fiji café"])
            let lisa = try await list(app, account, "q=mona%20lisa")
            XCTAssertEqual(lisa.data.map(\.name), ["Louvre"])
            let wildcard = try await list(app, account, "q=%25")
            XCTAssertEqual(wildcard.data.count, 0, "% is a character, not a wildcard")
            // A map box, and one across the antimeridian (west edge east of the east edge).
            let paris = try await list(app, account, "bbox=2.2,48.8,2.4,48.9&sort=name")
            XCTAssertEqual(paris.data.map(\.name), ["Café Procope", "Louvre", "Tour Eiffel"])
            let pacific = try await list(app, account, "bbox=170,-20,-170,-10&sort=name")
            XCTAssertEqual(pacific.data.map(\.name), ["Fiji café", "Samoa market"])
            let nearDateLine = try await list(app, account, "near=-15,179.9&within_km=1000&sort=distance")
            XCTAssertEqual(nearDateLine.data.map(\.name), ["Fiji café", "Samoa market"])
            // Bad parameters are named.
            for query in [
                "near=abc", "near=91,0", "near=1e1,2", "near=0x10,2", "near=1,1&within_km=-1", "bbox=1,2,3",
                "bbox=0,91,1,5", "favorite=maybe", "category_id=x", "favorite=", "within_km=&near=1,1",
            ] {
                let refused = try await app.send(.GET, "/api/places?" + query, headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(query): \(refused.text)")
            }
            // What has a reading is read: a box's south and north either way round, distance without a
            // point to measure from as no filter, and by name.
            let upsideDown = try await list(app, account, "bbox=2.2,48.9,2.4,48.8&sort=name")
            XCTAssertEqual(upsideDown.data.map(\.name), paris.data.map(\.name))
            let everyPlace = try await list(app, account, "sort=name")
            let unmeasured = try await list(app, account, "within_km=5&sort=name")
            XCTAssertEqual(unmeasured.data.map(\.name), everyPlace.data.map(\.name))
            let byDistanceFromNowhere = try await list(app, account, "sort=distance")
            XCTAssertEqual(byDistanceFromNowhere.data.map(\.name), everyPlace.data.map(\.name))
            let unknownSort = try await app.send(.GET, "/api/places?sort=popularity", headers: account.bearer)
            XCTAssertEqual(unknownSort.status, .badRequest)
            XCTAssertEqual(unknownSort.errorCode, 39)
        }
    }

    /// The text search reads a trigram index on both databases (AddPlaceSearchIndex): it must follow every
    /// change to a place, and find pieces of words as LIKE did, long and short.
    func testTheTextSearchFollowsEveryChange() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let mine = try await categories(app, account).data
            let theirCategories = try await categories(app, other).data
            let cafe = try XCTUnwrap(mine.first { $0.name == "Cafe" })
            let otherCafe = try XCTUnwrap(theirCategories.first { $0.name == "Cafe" })
            let flore = try await create(
                app, account,
                #"{"name": "Café de Flore", "latitude": 48.854, "longitude": 2.3325, "category_id": \#(cafe.id), "notes": "Sartre \"et\" Beauvoir"}"#
            )
            _ = try await create(
                app, other,
                #"{"name": "Café de Flore", "latitude": 48.854, "longitude": 2.3325, "category_id": \#(otherCafe.id)}"#)
            func names(_ query: String) async throws -> [String] {
                try await list(app, account, query).data.map(\.name)
            }
            for query in ["q=de%20flo", "q=FLORE", "q=beauvoir", "q=%22et%22", "q=fl", "q=e"] {
                let found = try await names(query)
                XCTAssertEqual(found, ["Café de Flore"], "\(database) \(query): only the person's own")
            }
            _ = try await app.send(
                .PUT, "/api/places/\(flore.id)", headers: account.bearer, json: #"{"name": "Les Deux Magots"}"#)
            let old = try await names("q=flore")
            XCTAssertEqual(old, [], "\(database): the old name is forgotten")
            let renamed = try await names("q=magots")
            XCTAssertEqual(renamed, ["Les Deux Magots"])
            let notes = try await names("q=sartre")
            XCTAssertEqual(notes, ["Les Deux Magots"], "the notes are kept with the new name")
            _ = try await app.send(.DELETE, "/api/places/\(flore.id)", headers: account.bearer)
            let gone = try await names("q=magots")
            XCTAssertEqual(gone, [])
            let theirs = try await list(app, other, "q=flore").data.map(\.name)
            XCTAssertEqual(theirs, ["Café de Flore"])
        }
    }

    /// A common word matches more places than a search sorts itself; its pages then come from walking the
    /// list's index (a short walk first, which places named "Anchor", first by name, make fall short), and
    /// must be the same pages. A word of a few hundred places is counted and sorted.
    func testACommonWordPagesLikeARareOne() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let places = PlaceService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let count = PlaceService.searchSortLimit + 50
            var lines = ["name,latitude,longitude"]
            for index in 0..<700 { lines.append("Anchor \(index),45.0,4.0") }
            for index in 0..<count { lines.append("Stall \(String(format: "%04d", index)),45.0,4.0") }
            lines.append("Other place,45.0,4.0")
            _ = try await PlaceImporter(places: places, geocoderEnabled: false, cpuWork: app.cpuWork).run(
                Data(lines.joined(separator: "\n").utf8), targetCategoryID: nil, dryRun: false, listName: nil,
                batchSize: 500)
            let first = try await list(app, account, "q=STALL&sort=name&limit=100")
            XCTAssertEqual(first.meta.total, count, "\(database)")
            XCTAssertEqual(first.data.first?.name, "Stall 0000")
            XCTAssertEqual(first.data.last?.name, "Stall 0099")
            let last = try await list(app, account, "q=stall&sort=-name&limit=100&page=\(count / 100 + 1)")
            XCTAssertEqual(last.data.map(\.name), (0..<50).map { "Stall \(String(format: "%04d", 49 - $0))" })
            let pastTheAnchors = try await list(app, account, "q=stall&sort=name")
            XCTAssertEqual(pastTheAnchors.data.map(\.name), (0..<15).map { "Stall \(String(format: "%04d", $0))" })
            XCTAssertEqual(pastTheAnchors.meta.total, count)
            let newest = try await list(app, account, "q=stall&sort=-created_at&limit=5")
            XCTAssertEqual(newest.data.map(\.name), (0..<5).map { "Stall \(String(format: "%04d", count - 1 - $0))" })
            let oldest = try await list(app, account, "q=stall&sort=created_at&limit=5")
            XCTAssertEqual(oldest.data.map(\.name), (0..<5).map { "Stall \(String(format: "%04d", $0))" })
            let thousand = try await list(app, account, "q=stall%200&sort=-name&limit=100&page=2")
            XCTAssertEqual(thousand.meta.total, 1_000)
            XCTAssertEqual(thousand.data.map(\.name), (0..<100).map { "Stall \(String(format: "%04d", 899 - $0))" })
            for odd in ["q=st%00all", "q=%00", "q=%02stall%03&category_id=1"] {
                let none = try await list(app, account, odd)
                XCTAssertEqual(none.meta.total, 0, odd)
            }
            let rare = try await list(app, account, "q=stall%200042")
            XCTAssertEqual(rare.data.map(\.name), ["Stall 0042"])
            XCTAssertEqual(rare.meta.total, 1)
            let beyond = try await list(app, account, "q=stall&page=200")
            XCTAssertEqual(beyond.data.count, 0)
            XCTAssertEqual(beyond.meta.total, count)
        }
    }
}
