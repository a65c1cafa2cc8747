import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Imports through the API: each export read back into another account, dry runs, merges and the report.
final class PlaceImportTests: XCTestCase {
    private func importFile(
        _ app: Application, _ account: TestAccount, _ bytes: [UInt8], filename: String = "places",
        fields: [String: String] = [:]
    ) async throws -> XCTHTTPResponse {
        let (body, type) = TestImages.multipart(
            bytes, field: "file", filename: filename, type: "application/octet-stream", fields: fields)
        var headers = account.bearer
        headers.replaceOrAdd(name: .contentType, value: type)
        return try await app.send(.POST, "/api/places/import", headers: headers, body: body)
    }

    func testEveryExportImportsBackIntoAnotherAccount() async throws {
        try await forEachDatabase { app, _, database in
            let ada = try await app.makeAccount()
            let categories = try await app.send(.GET, "/api/categories", headers: ada.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let bakeries = try await app.send(
                .POST, "/api/categories", headers: ada.bearer, json: #"{"name": "Bakeries"}"#
            )
            .decoded(DataEnvelope<PlaceCategoryResource>.self).data
            let sights = try XCTUnwrap(categories.first { $0.name == "Tourist Attraction" })
            for (name, latitude, longitude, category, favorite, notes, rating) in [
                ("Du Pain et des Idées", 48.871_234_5, 2.363_456_7, bakeries.id, true, "Escargot pistache", 5),
                ("Sagrada Família", 41.403_629, 2.174_356, sights.id, false, "Book ahead\n<tickets & times>", 0),
            ] {
                var body: [String: Any] = [
                    "name": name, "latitude": latitude, "longitude": longitude, "category_id": category,
                    "is_favorite": favorite, "notes": notes,
                ]
                if rating > 0 { body["rating"] = rating }
                let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                let created = try await app.send(.POST, "/api/places", headers: ada.bearer, json: json)
                XCTAssertEqual(created.status, .created)
            }
            for format in PlaceExportFormat.allCases {
                let file = try await app.send(.GET, "/api/places/export?format=\(format.rawValue)", headers: ada.bearer)
                let grace = try await app.makeAccount(email: "grace-\(format.rawValue)@example.com")
                // A dry run reports and saves nothing.
                let preview = try await importFile(
                    app, grace, Array(file.body.readableBytesView), fields: ["dry_run": "true"])
                XCTAssertEqual(preview.status, .ok, "\(database) \(format): \(preview.text)")
                let report = try preview.decoded(PlaceImportReportResource.self)
                XCTAssertEqual([report.created, report.merged, report.skipped], [2, 0, 0], "\(format)")
                XCTAssertEqual(report.format, format.rawValue)
                XCTAssertTrue(report.dryRun)
                let none = try await app.places(of: grace)
                XCTAssertEqual(none.count, 0)
                // For real: the same places, categories (Bakeries made on the way) and favorites.
                let done = try await importFile(app, grace, Array(file.body.readableBytesView))
                    .decoded(PlaceImportReportResource.self)
                XCTAssertEqual(done.created, 2, "\(format)")
                let imported = try await app.places(of: grace)
                XCTAssertEqual(imported.map(\.name), ["Du Pain et des Idées", "Sagrada Família"], "\(format)")
                XCTAssertEqual(imported.map(\.category.name), ["Bakeries", "Tourist Attraction"], "\(format)")
                XCTAssertEqual(imported.map(\.isFavorite), [true, false], "\(format)")
                XCTAssertEqual(imported.map(\.rating), [5, nil], "\(format): the stars come back")
                XCTAssertEqual(imported[0].latitude, 48.871_234_5, accuracy: 1e-6)
                XCTAssertEqual(imported[1].longitude, 2.174_356, accuracy: 1e-6)
                XCTAssertEqual(imported[1].notes, "Book ahead\n<tickets & times>", "\(format)")
                // Importing it again merges into what is there: nothing twice.
                let again = try await importFile(app, grace, Array(file.body.readableBytesView))
                    .decoded(PlaceImportReportResource.self)
                XCTAssertEqual([again.created, again.merged], [0, 2], "\(format)")
                let still = try await app.places(of: grace)
                XCTAssertEqual(still.count, 2)
            }
        }
    }

    func testAnImportedPlaceTheGeocoderFoundOnlyInItsCityIsApproximateUntilMoved() async throws {
        try await forEachDatabase { app, _, database in
            app.dependencies.geocoder = StubGeocoder { _ in
                [
                    GeocodingResult(
                        coordinate: Coordinate(latitude: 45.75797, longitude: 4.83201), displayName: "Lyon, France",
                        countryCode: "FR", precision: .city, source: "gazetteer")
                ]
            }
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let file = """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
                   "properties": {"google_maps_url": "http://maps.google.com/?cid=7",
                     "location": {"name": "Les Halles", "address": "102 Cours Lafayette, 69003 Lyon, France"}}},
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [4.8357, 45.764]},
                   "properties": {"google_maps_url": "http://maps.google.com/?cid=8",
                     "location": {"name": "Bellecour", "address": "Place Bellecour, Lyon"}}}
                ]}
                """
            let imported = try await importFile(app, account, Array(file.utf8), filename: "Saved Places.json")
            XCTAssertEqual(imported.status, .ok, "\(database): \(imported.text)")
            let places = try await app.send(.GET, "/api/places?sort=name", headers: account.bearer)
                .decoded(PageResource<PlaceResource>.self).data
            let bellecour = try XCTUnwrap(places.first { $0.name == "Bellecour" })
            let halles = try XCTUnwrap(places.first { $0.name == "Les Halles" })
            XCTAssertEqual(bellecour.precision, "manual", "a position from the file is exact")
            XCTAssertEqual(bellecour.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=45.764%2C4.8357")
            XCTAssertEqual(halles.precision, "city")
            let text = "102%20Cours%20Lafayette%2C%2069003%20Lyon%2C%20France"
            XCTAssertEqual(halles.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=" + text)
            XCTAssertFalse(halles.shareText.contains("45.75797"), halles.shareText)
            let page = try await browser.get("/places/\(halles.id)")
            XCTAssertTrue(page.text.contains("approximate: around Lyon"), "\(database): \(page.text)")
            XCTAssertTrue(page.text.contains("&quot;around&quot;:&quot;around Lyon&quot;"))

            // Renamed, the geocoder's precision stays; moved by hand, the pin is the person's: exact.
            let renamed = try await app.send(
                .PUT, "/api/places/\(halles.id)", headers: account.bearer, json: #"{"name": "Halles Paul Bocuse"}"#)
            XCTAssertEqual(try renamed.decoded(DataEnvelope<PlaceResource>.self).data.precision, "city")
            let moved = try await app.send(
                .PUT, "/api/places/\(halles.id)", headers: account.bearer,
                json: #"{"latitude": 45.76318, "longitude": 4.85065}"#)
            let after = try moved.decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertEqual(after.precision, "manual")
            XCTAssertEqual(after.mapLinks.google, "https://www.google.com/maps/search/?api=1&query=45.76318%2C4.85065")
        }
    }

    func testTakeoutFilesAListAndBadRowsAreReported() async throws {
        try await forEachDatabase { app, _, database in
            app.dependencies.geocoder = StubGeocoder { query in
                query.text.contains("Rue de Rivoli")
                    ? [
                        GeocodingResult(
                            coordinate: Coordinate(latitude: 48.8606, longitude: 2.3376), displayName: "Louvre",
                            countryCode: "FR", precision: .street, source: "stub")
                    ] : []
            }
            let account = try await app.makeAccount()
            let newer = """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.2945, 48.8584]},
                   "properties": {"date": "2023-04-01T10:00:00Z", "google_maps_url": "http://maps.google.com/?cid=1",
                     "location": {"name": "Tour Eiffel", "address": "Champ de Mars, Paris", "country_code": "FR"}}},
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
                   "properties": {"google_maps_url": "http://maps.google.com/?cid=2",
                     "location": {"name": "Louvre", "address": "Rue de Rivoli, Paris"}}},
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
                   "properties": {"google_maps_url": "http://maps.google.com/?cid=3",
                     "location": {"name": "Nowhere", "address": "Nowhere street 1"}}}
                ]}
                """
            let first = try await importFile(app, account, Array(newer.utf8), filename: "Saved Places.json")
            XCTAssertEqual(first.status, .ok, "\(database): \(first.text)")
            let report = try first.decoded(PlaceImportReportResource.self)
            XCTAssertEqual(report.format, "takeout")
            XCTAssertEqual([report.created, report.merged, report.skipped], [2, 0, 1])
            XCTAssertEqual(report.rows.first { $0.outcome == "skipped" }?.name, "Nowhere")
            XCTAssertTrue(report.rows.first { $0.outcome == "skipped" }?.reason?.contains("no position") ?? false)
            let older = """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.2947, 48.8584]},
                   "properties": {"Title": "Tour Eiffel", "Published": "2019-05-04T10:06:05Z",
                     "Google Maps URL": "http://maps.google.com/?cid=9",
                     "Location": {"Business Name": "Tour Eiffel", "Address": "Champ de Mars",
                       "Geo Coordinates": {"Latitude": "48.8584", "Longitude": "2.2947"}}}}
                ]}
                """
            let merged = try await importFile(app, account, Array(older.utf8)).decoded(PlaceImportReportResource.self)
            XCTAssertEqual([merged.created, merged.merged], [0, 1], "the same name within 25 m is one place")
            let list = """
                Title,Note,URL
                Café Procope,Oldest café,"https://www.google.com/maps/search/48.8530,2.3388"
                No position,,https://www.google.com/maps/place/somewhere
                """
            let fromList = try await importFile(app, account, Array(list.utf8), filename: "Paris trip.csv")
                .decoded(PlaceImportReportResource.self)
            XCTAssertEqual(fromList.format, "takeout-list")
            XCTAssertEqual(fromList.created, 1)
            XCTAssertEqual(fromList.skipped, 1)
            let procope = try await app.send(.GET, "/api/places?q=procope", headers: account.bearer)
                .decoded(PageResource<PlaceResource>.self).data
            XCTAssertEqual(procope.first?.category.name, "Paris trip", "a list's name is its category")
            // A hand-written CSV with a bad row; and a target category for all.
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let cafe = try XCTUnwrap(categories.first { $0.name == "Cafe" })
            let csv = """
                name,latitude,longitude,notes
                Le Select,48.8427,2.3285,Montparnasse
                ,48.8,2.3,no name
                Off the map,95,2.3,
                """
            let rows = try await importFile(app, account, Array(csv.utf8), fields: ["category_id": String(cafe.id)])
                .decoded(PlaceImportReportResource.self)
            XCTAssertEqual(rows.created, 1)
            XCTAssertEqual(rows.skipped, 2, "\(rows)")
            let select = try await app.send(.GET, "/api/places?q=select", headers: account.bearer)
                .decoded(PageResource<PlaceResource>.self).data
            XCTAssertEqual(select.first?.categoryID, cafe.id)
            // What cannot be imported at all changes nothing.
            let before = try await app.places(of: account).count
            for (bytes, field) in [
                (Array("just some words".utf8), "file"), (Array("<html></html>".utf8), "file"), ([UInt8](), "file"),
            ] {
                let refused = try await importFile(app, account, bytes)
                XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
                XCTAssertTrue(refused.text.contains(field == "file" ? "file" : field))
            }
            let foreign = try await importFile(app, account, Array(csv.utf8), fields: ["category_id": "999999"])
            XCTAssertEqual(foreign.status, .notFound)
            let badFlag = try await importFile(app, account, Array(csv.utf8), fields: ["dry_run": "maybe"])
            XCTAssertEqual(badFlag.status, .unprocessableEntity)
            let after = try await app.places(of: account).count
            XCTAssertEqual(after, before)
        }
    }

    /// A CSV of `count` places around Lyon, named "Stop 1"… plus one row with no position.
    private func largeCSV(count: Int) -> String {
        var lines = ["name,latitude,longitude,category,notes"]
        for index in 1...count {
            let latitude = 45.7 + Double(index) * 0.001
            lines.append("Stop \(index),\(latitude),4.85,Stops,note \(index)")
        }
        lines.append("Lost,,,Stops,")
        return lines.joined(separator: "\n") + "\n"
    }

    func testALargeFileImportsInTheBackgroundWithProgress() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let count = PlaceImportStore.backgroundThreshold + 60
            let accepted = try await importFile(app, account, Array(largeCSV(count: count).utf8), filename: "stops.csv")
            XCTAssertEqual(accepted.status, .accepted, "\(database): \(accepted.text)")
            let queued = try accepted.decoded(DataEnvelope<PlaceImportJobResource>.self).data
            XCTAssertEqual(queued.status, "queued")
            XCTAssertEqual(queued.total, count + 1)
            XCTAssertEqual(queued.processed, 0)
            XCTAssertNil(queued.report)
            XCTAssertEqual(queued.url, "http://127.0.0.1:8080/api/imports/\(queued.id)")
            XCTAssertEqual(accepted.headers.first(name: .location), queued.url)
            let before = try await app.places(of: account)
            XCTAssertEqual(before.count, 0, "nothing is written before the job runs")
            // Another account cannot see it.
            let hidden = try await app.send(.GET, "/api/imports/\(queued.id)", headers: other.bearer)
            XCTAssertEqual(hidden.status, .notFound)

            let waiting = try await app.db.plainRows(
                #"SELECT "file" FROM "place_import_files" WHERE "import_id" = \#(literal: queued.id)"#,
                columns: ["file"])
            XCTAssertEqual(try waiting.first?.bytes(0)?.count, largeCSV(count: count).utf8.count, "the file waits")

            let ran = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ran, 1)
            let done = try await app.send(.GET, "/api/imports/\(queued.id)", headers: account.bearer)
                .decoded(DataEnvelope<PlaceImportJobResource>.self).data
            XCTAssertEqual(done.status, "done")
            XCTAssertEqual(done.processed, count + 1)
            XCTAssertNil(done.stage)
            let report = try XCTUnwrap(done.report)
            XCTAssertEqual([report.created, report.merged, report.skipped], [count, 0, 1])
            XCTAssertEqual(report.rows.map(\.row), Array(1...100), "the first page of rows")
            let rowsURL = "http://127.0.0.1:8080/api/imports/\(queued.id)/rows"
            XCTAssertEqual(report.rowsURL, rowsURL)
            let stored = try await app.db.plainRows(
                #"SELECT "report" FROM "place_imports" WHERE "id" = \#(literal: queued.id)"#, columns: ["report"])
            XCTAssertFalse(try stored.first?.text(0)?.contains("Stop 1") ?? true, "the rows are not kept in the report")

            // Every row, a page at a time, in file order.
            let lastPage = try await app.send(.GET, "/api/imports/\(queued.id)/rows?page=3", headers: account.bearer)
                .decoded(PageResource<PlaceImportReportResource.Row>.self)
            XCTAssertEqual(lastPage.meta.total, count + 1)
            XCTAssertEqual(lastPage.meta.lastPage, 3)
            XCTAssertEqual(lastPage.data.first?.row, 201)
            XCTAssertEqual(lastPage.data.last?.name, "Lost")
            XCTAssertEqual(lastPage.links.prev, rowsURL + "?page=2")
            let created = try XCTUnwrap(lastPage.data.first?.placeID)
            let place = try await app.send(.GET, "/api/places/\(created)", headers: account.bearer)
                .decoded(DataEnvelope<PlaceResource>.self).data
            XCTAssertEqual(place.name, lastPage.data.first?.name, "a created row names its place")
            let skipped = try await app.send(
                .GET, "/api/imports/\(queued.id)/rows?outcome=skipped&limit=5", headers: account.bearer
            ).decoded(PageResource<PlaceImportReportResource.Row>.self)
            XCTAssertEqual(skipped.data.map(\.name), ["Lost"])
            XCTAssertNotNil(skipped.data.first?.reason)
            XCTAssertEqual(skipped.links.first, rowsURL + "?outcome=skipped&limit=5&page=1")
            for (query, field) in [("outcome=lost", "outcome"), ("page=0", "page")] {
                let refused = try await app.send(
                    .GET, "/api/imports/\(queued.id)/rows?\(query)", headers: account.bearer)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): \(query)")
                XCTAssertTrue(refused.text.contains(field), refused.text)
            }
            let tooMany = try await app.send(.GET, "/api/imports/\(queued.id)/rows?limit=101", headers: account.bearer)
            XCTAssertEqual(tooMany.status, .badRequest, "as every list answers a limit above 100")
            let hiddenRows = try await app.send(.GET, "/api/imports/\(queued.id)/rows", headers: other.bearer)
            XCTAssertEqual(hiddenRows.status, .notFound, "another account cannot read the rows")
            let total = try await app.send(.GET, "/api/places?limit=1", headers: account.bearer)
                .decoded(PageResource<PlaceResource>.self).meta.total
            XCTAssertEqual(total, count)
            let ranAgain = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranAgain, 0, "the job ran once")
            let kept = try await app.db.plainRows(
                #"SELECT COUNT(*) AS "n" FROM "place_import_files" WHERE "import_id" = \#(literal: queued.id)"#,
                columns: ["n"])
            XCTAssertEqual(try kept.first?.integer(0), 0, "the file is dropped once imported")

            // A dry run of a large file is answered at once; nothing is queued.
            let preview = try await importFile(
                app, account, Array(largeCSV(count: count).utf8), fields: ["dry_run": "true"])
            XCTAssertEqual(preview.status, .ok)
            XCTAssertEqual(try preview.decoded(PlaceImportReportResource.self).merged, count)
            let missing = try await app.send(.GET, "/api/imports/999999", headers: account.bearer)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testTheBackgroundJobRecordsProgressAfterEachBatch() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let places = PlaceService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let steps = NIOLockedValueBox<[PlaceImporter.Progress]>([])
            let count = PlaceImportStore.batchSize * 2 + 10
            let report = try await PlaceImporter(places: places, geocoderEnabled: false, cpuWork: app.cpuWork).run(
                Data(largeCSV(count: count).utf8), targetCategoryID: nil, dryRun: false, listName: nil,
                batchSize: PlaceImportStore.batchSize
            ) { step in steps.withLockedValue { $0.append(step) } }
            XCTAssertEqual(report.created, count)
            let batch = PlaceImportStore.batchSize
            let saving = steps.withLockedValue { $0 }.filter { $0.stage == .saving }.map(\.done)
            XCTAssertEqual(saving, [batch, batch * 2, count + 1])
            let checking = steps.withLockedValue { $0 }.filter { $0.stage == .checking }.map(\.done)
            XCTAssertEqual(checking, Array(stride(from: 0, to: count + 1, by: PlaceImporter.checkingPart)))
            // Each batch's places are made in one statement: every row names the place made from it.
            let names = Dictionary(
                uniqueKeysWithValues: try await places.all(filter: PlaceFilter()).map {
                    ($0.id, $0.fields.name)
                })
            let created = report.rows.filter { $0.outcome == "created" }
            XCTAssertEqual(created.count, count)
            for row in created { XCTAssertEqual(row.placeID.flatMap { names[$0] }, row.name) }
        }
    }

    func testAnImportLeavesPostgreSQLsStatisticsUpToDate() async throws {
        try await withApp(.postgres) { app, _ in
            // PostgreSQL only: SQLite keeps no planner statistics for these tables (see tidyAfterImport).
            let account = try await app.makeAccount()
            let places = PlaceService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let before = try await app.plannerEstimate(ofRowsIn: "places")
            XCTAssertLessThanOrEqual(before, 0, "an empty table, never analysed")
            let count = 300
            _ = try await PlaceImporter(places: places, geocoderEnabled: false, cpuWork: app.cpuWork).run(
                Data(largeCSV(count: count).utf8), targetCategoryID: nil, dryRun: false, listName: nil,
                batchSize: PlaceImportStore.batchSize)
            let afterPlaces = try await app.plannerEstimate(ofRowsIn: "places")
            let afterKeys = try await app.plannerEstimate(ofRowsIn: "place_search_keys")
            XCTAssertEqual(afterPlaces, Double(count), "the planner knows the import's rows at once")
            XCTAssertEqual(afterKeys, Double(count))
        }
    }

    func testTheCommandLineImportsAndExportsPlaces() async throws {
        try await forEachDatabase { app, _, _ in
            let ada = try await app.makeAccount()
            let grace = try await app.makeAccount(email: "grace@example.com")
            let lines = try await LocifyApp.importPlaces(
                in: app, email: ada.email, file: Data(largeCSV(count: 3).utf8), fileName: "stops.csv",
                categoryName: "Day trips", dryRun: false)
            XCTAssertEqual(
                lines,
                [
                    "3 places created, 0 merged into places already saved, 1 skipped (CSV).",
                    "Record 4 “Lost” was left out: It has no position, and its address could not be placed.",
                ])
            let saved = try await app.places(of: ada)
            XCTAssertEqual(saved.map(\.category.name), ["Day trips", "Day trips", "Day trips"], "--category wins")
            let again = try await LocifyApp.importPlaces(
                in: app, email: ada.email, file: Data(largeCSV(count: 3).utf8), fileName: "stops.csv",
                categoryName: "day TRIPS", dryRun: true)
            XCTAssertEqual(
                again.first, "0 places would be created, 3 would be merged into places already saved, 1 skipped (CSV).")

            for format in PlaceExportFormat.allCases {
                let exported = try await LocifyApp.exportPlaces(
                    in: app, email: ada.email, format: format.rawValue.uppercased(), categoryName: "Day Trips",
                    favoritesOnly: false)
                XCTAssertEqual(exported.count, 3)
                XCTAssertTrue(exported.fileName.hasSuffix(".\(format.fileExtension)"), exported.fileName)
                let back = try await LocifyApp.importPlaces(
                    in: app, email: grace.email, file: exported.file, fileName: exported.fileName, categoryName: nil,
                    dryRun: true)
                XCTAssertEqual(back.first?.hasPrefix("3 places would be created"), true, "\(format): \(back)")
            }
            let favorites = try await LocifyApp.exportPlaces(
                in: app, email: ada.email, format: "csv", categoryName: nil, favoritesOnly: true)
            XCTAssertEqual(favorites.count, 0)
            do {
                _ = try await LocifyApp.exportPlaces(
                    in: app, email: ada.email, format: "shapefile", categoryName: nil, favoritesOnly: false)
                XCTFail("an unknown format is refused")
            } catch let failure as CommandFailure {
                XCTAssertTrue(failure.description.contains("gpx, kml, kmz, geojson, csv"), failure.description)
            }
            do {
                _ = try await LocifyApp.exportPlaces(
                    in: app, email: ada.email, format: "gpx", categoryName: "Nope", favoritesOnly: false)
                XCTFail("an unknown category is refused")
            } catch let failure as CommandFailure {
                XCTAssertEqual(failure.description, "The account has no category named “Nope”.")
            }
            do {
                _ = try await LocifyApp.importPlaces(
                    in: app, email: ada.email, file: Data("hello".utf8), fileName: "x.txt", categoryName: nil,
                    dryRun: false)
                XCTFail("a file without places is refused")
            } catch let failure as CommandFailure {
                XCTAssertTrue(failure.description.hasPrefix("The file is not GPX"), failure.description)
            }
        }
    }
}
