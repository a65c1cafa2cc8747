import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Settings' places import and export: a preview first, then the import, in the request or the background.
final class PlaceInterchangeWebTests: XCTestCase {
    func testSettingsExportsAndImportsWithAPreviewFirst() async throws {
        try await forEachDatabase { app, clock, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let awaited18 = try await app.placeCategories(of: account).first { $0.name == "Cafe" }
            let cafe = try XCTUnwrap(awaited18)
            _ = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json:
                    #"{"name": "Café de Flore", "latitude": 48.854, "longitude": 2.3325, "category_id": \#(cafe.id), "is_favorite": true}"#
            )
            _ = try await browser.get("/settings/places")
            let download = try await browser.get(
                "/settings/places/export?format=kml&category_id=\(cafe.id)&favorite=true")
            XCTAssertEqual(download.status, .ok)
            XCTAssertEqual(
                download.headers.first(name: .contentDisposition),
                "attachment; filename=\"locify-places-2024-05-04.kml\"")
            XCTAssertTrue(download.text.contains("<name>Café de Flore</name>"))
            let unknownFormat = try await browser.get("/settings/places/export?format=shp")
            XCTAssertEqual(unknownFormat.status, .unprocessableEntity)

            // Into another account: the preview saves nothing, "Import" saves it.
            let other = WebClient(app: app)
            _ = try await other.register(email: "ada@example.com")
            let ada = try await app.apiAccount(email: "ada@example.com")
            _ = try await other.get("/settings/places")
            let notPlaces = try await other.upload("/settings/places/import", fileName: "notes.txt", contents: "hello")
            XCTAssertEqual(notPlaces.status, .unprocessableEntity)
            XCTAssertTrue(notPlaces.text.contains("The file is not GPX, KML, KMZ, GeoJSON, CSV"), notPlaces.text)
            let previewed = try await other.upload(
                "/settings/places/import", fileName: "flore.kml", contents: download.text)
            XCTAssertEqual(previewed.status, .seeOther)
            let status = try XCTUnwrap(previewed.headers.first(name: .location))
            var page = try await other.get(status)
            XCTAssertTrue(page.text.contains("Import preview of “flore.kml”"))
            XCTAssertTrue(
                page.text.contains(
                    "1 place would be created, 0 would be merged into places already saved, 0 skipped (KML)."))
            let awaited19 = try await app.places(of: ada).count
            XCTAssertEqual(awaited19, 0, "a preview saves nothing")
            let awaited20 = try await browser.get(status).status
            XCTAssertEqual(awaited20, .notFound, "another person's import is not found")
            _ = try await other.post(status, form: [:])
            page = try await other.get(status)
            XCTAssertTrue(page.text.contains("Done: 1 place created"), page.text)
            let imported = try await app.places(of: ada)
            XCTAssertEqual(imported.map(\.name), ["Café de Flore"])
            XCTAssertTrue(imported[0].isFavorite)
            _ = try await other.post(status, form: [:])
            let awaited21 = try await app.places(of: ada).count
            XCTAssertEqual(awaited21, 1, "confirming twice imports once")

            // A large file goes to the background; its page follows it and reloads itself.
            var lines = ["name,latitude,longitude"]
            for index in 1...(PlaceImportStore.backgroundThreshold + 5) {
                lines.append("Stop \(index),\(45 + Double(index) / 1000),4.85")
            }
            _ = try await other.get("/settings/places")
            let large = try await other.upload(
                "/settings/places/import", fileName: "stops.csv", contents: lines.joined(separator: "\n"))
            let largeStatus = try XCTUnwrap(large.headers.first(name: .location))
            // The report's lines come a page at a time.
            page = try await other.get(largeStatus)
            XCTAssertTrue(page.text.contains("Import 205 new places"), page.text)
            XCTAssertTrue(page.text.contains("New (205)"))
            XCTAssertTrue(page.text.contains("<li>Stop 100</li>"))
            XCTAssertFalse(page.text.contains("<li>Stop 101</li>"))
            XCTAssertTrue(page.text.contains("Page 1 of 3"))
            XCTAssertTrue(page.text.contains(#"<a href="\#(largeStatus)?page=2" rel="next">Next page</a>"#), page.text)
            let third = try await other.get(largeStatus + "?page=3")
            XCTAssertTrue(third.text.contains("<li>Stop 205</li>"))
            XCTAssertFalse(third.text.contains("<li>Stop 200</li>"))
            XCTAssertTrue(third.text.contains(#"<a href="\#(largeStatus)?page=2" rel="prev">Previous page</a>"#))
            XCTAssertFalse(third.text.contains("Next page"))
            _ = try await other.post(largeStatus, form: [:])
            page = try await other.get(largeStatus)
            XCTAssertTrue(page.text.contains(#"<meta http-equiv="refresh" content="2">"#), page.text)
            XCTAssertTrue(page.text.contains("Waiting to start — 0 of 205 records."), page.text)
            _ = try await app.jobRunner.runDue(now: clock.now)
            page = try await other.get(largeStatus)
            XCTAssertFalse(page.text.contains("http-equiv"))
            XCTAssertTrue(page.text.contains("Done: 205 places created"), page.text)
        }
    }
}
