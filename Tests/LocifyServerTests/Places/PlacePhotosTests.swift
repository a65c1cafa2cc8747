import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor
import ZIPFoundation

@testable import LocifyServer

/// A place's pictures: the API, the signed files, the place page and the lists, the sync feed and the
/// exports.
final class PlacePhotosTests: XCTestCase {
    private func upload(
        _ app: Application, _ account: TestAccount, placeID: Int, _ bytes: [UInt8], filename: String = "terrace.png"
    ) async throws -> XCTHTTPResponse {
        let (body, type) = TestImages.multipart(bytes, filename: filename)
        var headers = account.bearer
        headers.replaceOrAdd(name: .contentType, value: type)
        return try await app.send(.POST, "/api/places/\(placeID)/photos", headers: headers, body: body)
    }

    private func photos(_ app: Application, _ account: TestAccount, placeID: Int) async throws -> [PlacePhotoResource] {
        let response = try await app.send(.GET, "/api/places/\(placeID)/photos", headers: account.bearer)
        XCTAssertEqual(response.status, .ok, response.text)
        return try response.decoded(DataEnvelope<[PlacePhotoResource]>.self).data
    }

    /// The path and query of a link the API gave, to fetch it as a client without credentials would.
    private func local(_ link: String) -> String {
        String(link.dropFirst("http://127.0.0.1:8080".count))
    }

    func testPicturesAreUploadedServedByTheirSignedLinkReorderedAndDeleted() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let first = TestImages.png(width: 800, height: 600, filler: 10, seed: 1)
            let uploaded = try await upload(app, account, placeID: place.id, first)
            XCTAssertEqual(uploaded.status, .created, "\(database): \(uploaded.text)")
            let cover = try uploaded.decoded(DataEnvelope<PlacePhotoResource>.self).data
            XCTAssertEqual(cover.object, "place_photo")
            XCTAssertEqual(cover.placeID, place.id)
            XCTAssertEqual(cover.position, 1)
            XCTAssertEqual([cover.width, cover.height, cover.filesize], [800, 600, first.count])
            XCTAssertEqual(cover.originalFilename, "terrace.png")
            XCTAssertTrue(
                cover.link.hasPrefix("http://127.0.0.1:8080/store/\(cover.newFilename)?expires="), cover.link)
            XCTAssertTrue(cover.newFilename.hasPrefix("place-photos/") && cover.newFilename.hasSuffix(".png"))

            // The signed link opens the picture without credentials; the bare file does not.
            let served = try await app.send(.GET, local(cover.link))
            XCTAssertEqual(served.status, .ok)
            XCTAssertEqual(Array(served.body.readableBytesView), first)
            XCTAssertEqual(served.headers.first(name: .contentType), "image/png")
            XCTAssertEqual(served.headers.first(name: .cacheControl), "private, max-age=604800, immutable")
            let bare = try await app.send(.GET, "/store/\(cover.newFilename)")
            XCTAssertEqual(bare.status, .unauthorized, bare.text)
            let forged = try await app.send(
                .GET, local(cover.link).replacingOccurrences(of: "signature=", with: "signature=00"))
            XCTAssertEqual(forged.status, .unauthorized, forged.text)
            let owned = try await app.send(.GET, "/store/\(cover.newFilename)", headers: account.bearer)
            XCTAssertEqual(owned.status, .ok, "the owner's token opens it")
            let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let foreign = try await app.send(.GET, "/store/\(cover.newFilename)", headers: stranger.bearer)
            XCTAssertEqual(foreign.status, .notFound)

            clock.advance(by: 60)
            let json = try await app.send(
                .POST, "/api/places/\(place.id)/photos", headers: account.bearer,
                json: #"{"data":"\#(Data(TestImages.jpeg).base64EncodedString())","original_filename":"menu.jpg"}"#)
            XCTAssertEqual(json.status, .created, json.text)
            let menu = try json.decoded(DataEnvelope<PlacePhotoResource>.self).data
            XCTAssertEqual([menu.position, menu.width, menu.height], [2, 1920, 1080])
            XCTAssertEqual(menu.mimeType, "image/jpeg")
            let third = try await upload(app, account, placeID: place.id, TestImages.webp, filename: "night.webp")
            let night = try third.decoded(DataEnvelope<PlacePhotoResource>.self).data
            let listed1 = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(listed1.map(\.id), [cover.id, menu.id, night.id])

            // The last becomes the cover; the others close up behind it.
            let moved = try await app.send(
                .PUT, "/api/placephotos/\(night.id)", headers: account.bearer, json: #"{"position":1}"#)
            XCTAssertEqual(moved.status, .ok, moved.text)
            XCTAssertEqual(try moved.decoded(DataEnvelope<PlacePhotoResource>.self).data.position, 1)
            var order = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(order.map(\.id), [night.id, cover.id, menu.id])
            XCTAssertEqual(order.map(\.position), [1, 2, 3])
            let pastTheEnd = try await app.send(
                .PUT, "/api/placephotos/\(night.id)", headers: account.bearer, json: #"{"position":"99"}"#)
            XCTAssertEqual(try pastTheEnd.decoded(DataEnvelope<PlacePhotoResource>.self).data.position, 3)
            order = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(order.map(\.id), [cover.id, menu.id, night.id])

            let deleted = try await app.send(.DELETE, "/api/placephotos/\(cover.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(cover.id)}"#)
            order = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(order.map(\.id), [menu.id, night.id], "the next one is the cover")
            XCTAssertEqual(order.map(\.position), [1, 2])
            let gone = try await app.send(.GET, local(cover.link))
            XCTAssertEqual(gone.status, .notFound)
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 2, "\(database): the deleted picture's bytes went with it")
        }
    }

    func testWhatIsNotAPictureOrOneTooManyIsRefusedAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let photo = try await upload(app, account, placeID: place.id, TestImages.gif)
                .decoded(DataEnvelope<PlacePhotoResource>.self).data
            for (bytes, message) in [
                (TestImages.svg, "must be a JPEG, PNG, GIF or WebP image"),
                ([UInt8](), "The photo is empty."),
            ] {
                let refused = try await upload(app, account, placeID: place.id, bytes)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): \(refused.text)")
                XCTAssertTrue(refused.text.contains(message), refused.text)
            }
            let tooLarge = try await upload(
                app, account, placeID: place.id, TestImages.png(filler: PhotoUpload.defaultMaximumBytes))
            XCTAssertEqual(tooLarge.status, .payloadTooLarge, tooLarge.text)
            let nothing = try await app.send(
                .POST, "/api/places/\(place.id)/photos", headers: account.bearer, json: #"{"original_filename":"x"}"#)
            XCTAssertEqual(nothing.status, .unprocessableEntity)
            XCTAssertTrue(nothing.text.contains("Send the photo as `photo` or `data`."), nothing.text)
            let missingPlace = try await upload(app, account, placeID: 999_999, TestImages.gif)
            XCTAssertEqual(missingPlace.status, .notFound)
            for json in [#"{"position":0}"#, #"{"position":"first"}"#, "{}"] {
                let refused = try await app.send(
                    .PUT, "/api/placephotos/\(photo.id)", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
                XCTAssertTrue(refused.text.contains("Position"), refused.text)
            }
            let listed2 = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(listed2.map(\.id), [photo.id])

            // Another account sees none of it.
            let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            for (method, path) in [
                (HTTPMethod.GET, "/api/places/\(place.id)/photos"), (.GET, "/api/placephotos/\(photo.id)"),
                (.PUT, "/api/placephotos/\(photo.id)"), (.DELETE, "/api/placephotos/\(photo.id)"),
            ] {
                let response = try await app.send(method, path, headers: stranger.bearer, json: #"{"position":1}"#)
                XCTAssertEqual(response.status, .notFound, "\(database): \(method) \(path)")
            }
            let theirs = try await upload(app, stranger, placeID: place.id, TestImages.gif)
            XCTAssertEqual(theirs.status, .notFound)

            // A place holds at most 50 pictures: the 51st is refused, and says why.
            for seed in 1..<PlacePhoto.maximumPerPlace {
                let added = try await upload(app, account, placeID: place.id, TestImages.png(seed: UInt8(seed)))
                XCTAssertEqual(added.status, .created, added.text)
            }
            let full = try await upload(app, account, placeID: place.id, TestImages.png(seed: 200))
            XCTAssertEqual(full.status, .conflict, full.text)
            XCTAssertTrue(full.text.contains("A place holds at most 50 photos"), full.text)
            let listed3 = try await photos(app, account, placeID: place.id)
            XCTAssertEqual(listed3.count, PlacePhoto.maximumPerPlace)
        }
    }

    func testThePlacePageAndTheListsShowTheCover() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let api = try await app.apiAccount(email: "grace@example.com")
            let place = try await app.makePlace(for: api)
            let path = "/places/\(place.id)"
            var page = try await browser.get(path)
            XCTAssertTrue(page.text.contains("No pictures yet."), "\(database)")
            XCTAssertTrue(page.text.contains(#"action="\#(path)/photos" enctype="multipart/form-data""#))

            func send(_ bytes: [UInt8]) async throws -> XCTHTTPResponse {
                try await browser.get(path)
                let (body, type) = TestImages.multipart(bytes, fields: ["_csrf": browser.csrfToken ?? ""])
                return try await browser.send(.POST, path + "/photos", bytes: body, contentType: type)
            }
            let refused = try await send(TestImages.svg)
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("must be a JPEG, PNG, GIF or WebP image"), refused.text)
            let added = try await send(TestImages.png(width: 1280, height: 960, seed: 1))
            XCTAssertEqual(added.status, .seeOther, added.text)
            XCTAssertEqual(added.headers.first(name: .location), path + "#photos")
            _ = try await send(TestImages.png(width: 100, height: 200, seed: 2))
            let stored = try await photos(app, api, placeID: place.id)
            let coverSource = stored[0].link.replacingOccurrences(of: "&", with: "&amp;")
            page = try await browser.get(path)
            XCTAssertTrue(
                page.text.contains(
                    #"<img class="place-cover" src="\#(coverSource)" alt="Cover picture of Café de Flore" width="640" height="480""#
                ), page.text)
            XCTAssertTrue(page.text.contains(#"alt="Picture 2 of Café de Flore" width="80" height="160""#))

            let list = try await browser.get("/places/categories/\(place.category.id)")
            XCTAssertTrue(list.text.contains(#"<img class="place-thumb" src="\#(coverSource)""#), list.text)

            let moved = try await browser.post("/places/photos/\(stored[1].id)/move", form: ["position": "1"])
            XCTAssertEqual(moved.status, .seeOther)
            page = try await browser.get(path)
            XCTAssertTrue(page.text.contains("The picture is now the cover."))
            let listed4 = try await photos(app, api, placeID: place.id)
            XCTAssertEqual(listed4.map(\.id), [stored[1].id, stored[0].id])
            let badMove = try await browser.post("/places/photos/\(stored[1].id)/move", form: ["position": "0"])
            XCTAssertEqual(badMove.status, .seeOther)
            page = try await browser.get(path)
            XCTAssertTrue(page.text.contains("Choose where the picture goes."))
            let deleted = try await browser.post("/places/photos/\(stored[1].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let listed5 = try await photos(app, api, placeID: place.id)
            XCTAssertEqual(listed5.map(\.id), [stored[0].id])
        }
    }

    func testPicturesTravelInTheSyncFeedAndGoWithTheirPlace() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let photo = try await upload(app, account, placeID: place.id, TestImages.gif)
                .decoded(DataEnvelope<PlacePhotoResource>.self).data
            let pulled = try await app.send(.GET, "/api/sync?types=place,place_photo", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["place", "place_photo"], "\(database): \(pulled.text)")
            guard case .placePhoto(let record) = feed.changes[1].data else { return XCTFail(pulled.text) }
            XCTAssertEqual(record.uuid, photo.uuid)

            let deleted = try await app.send(.DELETE, "/api/places/\(place.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let after = try await app.send(
                .GET, "/api/sync?types=place,place_photo&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(
                Set(try after.decoded(SyncPullResource.self).deletions.map(\.uuid)), [place.uuid, photo.uuid],
                after.text)
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 0, "\(database): the bytes went with the place")
        }
    }

    /// KMZ holds the pictures; GPX, KML and GeoJSON carry their signed links; CSV has no place for them.
    func testExportsCarryThePictures() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let bytes = TestImages.png(width: 64, height: 64, filler: 100, seed: 7)
            _ = try await upload(app, account, placeID: place.id, bytes)
            _ = try await upload(app, account, placeID: place.id, TestImages.jpeg)
            let stored = try await photos(app, account, placeID: place.id)
            func export(_ format: String) async throws -> XCTHTTPResponse {
                let response = try await app.send(
                    .GET, "/api/places/export?format=\(format)", headers: account.bearer)
                XCTAssertEqual(response.status, .ok, "\(database) \(format): \(response.text)")
                return response
            }
            func linkPath(_ link: String) -> String {
                String(link.split(separator: "?")[0].dropFirst("http://127.0.0.1:8080".count))
            }

            let gpx = try await export("gpx").text
            for photo in stored {
                XCTAssertTrue(
                    gpx.contains(#"<link href="http://127.0.0.1:8080/store/\#(photo.newFilename)?expires="#), gpx)
            }
            XCTAssertTrue(gpx.contains("<text>Photo</text><type>image/png</type></link>"), gpx)
            let gpxLink = try XCTUnwrap(
                gpx.components(separatedBy: "<link href=\"").dropFirst().first?
                    .split(separator: "\"").first.map { String($0).replacingOccurrences(of: "&amp;", with: "&") })
            let viaLink = try await app.send(.GET, local(gpxLink))
            XCTAssertEqual(Array(viaLink.body.readableBytesView), bytes, "the exported link opens the picture")

            let geoJSON = try JSONSerialization.jsonObject(with: Data(try await export("geojson").text.utf8))
            let features = try XCTUnwrap((geoJSON as? [String: Any])?["features"] as? [[String: Any]])
            let links = try XCTUnwrap((features.first?["properties"] as? [String: Any])?["photos"] as? [String])
            XCTAssertEqual(links.map(linkPath), stored.map { "/store/\($0.newFilename)" })

            let kml = try await export("kml").text
            XCTAssertTrue(kml.contains("<gx:Carousel>"), kml)
            XCTAssertTrue(kml.contains("<gx:ImageUrl>http://127.0.0.1:8080/store/\(stored[0].newFilename)?"), kml)

            let kmz = try await export("kmz")
            let archive = try Archive(data: Data(kmz.body.readableBytesView), accessMode: .read)
            var doc = Data()
            _ = try archive.extract(try XCTUnwrap(archive["doc.kml"])) { doc.append($0) }
            let docText = String(decoding: doc, as: UTF8.self)
            XCTAssertTrue(
                docText.contains("<gx:ImageUrl>\(stored[0].newFilename)</gx:ImageUrl>"), "relative to the KMZ")
            var inside = Data()
            _ = try archive.extract(try XCTUnwrap(archive[stored[0].newFilename])) { inside.append($0) }
            XCTAssertEqual(Array(inside), bytes)
            XCTAssertNotNil(archive[stored[1].newFilename])
            // The KMZ still reads back as the same place.
            let read = KML.readKMZ(Data(kmz.body.readableBytesView))
            XCTAssertEqual(read.places.map(\.name), ["Café de Flore"])

            let csv = try await export("csv").text
            XCTAssertFalse(csv.contains("/store/"), csv)
        }
    }
}
