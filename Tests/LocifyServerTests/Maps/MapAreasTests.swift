import Foundation
import LocifyAPI
import LocifyCore
import SQLiteNIO
import XCTVapor

@testable import LocifyServer

final class MapAreasTests: XCTestCase {
    /// About 3 × 3 km of Zürich to zoom 15.
    let zurich =
        #"{"name": "Zürich Altstadt", "south": 47.36, "west": 8.52, "north": 47.387, "east": 8.56, "max_zoom": 15}"#

    func testAnAreaIsEstimatedSavedListedDownloadedAndDeleted() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let plan = try MapAreaDraft(south: 47.36, west: 8.52, north: 47.387, east: 8.56, maximumZoom: 15)
                .validated()

            let estimate = try await app.send(.POST, "/api/map-areas/estimate", headers: account.bearer, json: zurich)
            XCTAssertEqual(estimate.status, .ok, estimate.text)
            let estimated = try estimate.decoded(DataEnvelope<MapAreaEstimateResource>.self).data
            XCTAssertEqual(estimated.tileCount, plan.tileCount)
            XCTAssertEqual(estimated.source, "basemap", "OpenStreetMap's servers are never bulk-downloaded")
            XCTAssertEqual(estimated.maxTiles, 10_000)
            XCTAssertGreaterThan(estimated.estimatedBytes, 0)

            let created = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: zurich)
            XCTAssertEqual(created.status, .created, created.text)
            let area = try created.decoded(DataEnvelope<MapAreaResource>.self).data
            XCTAssertEqual(area.name, "Zürich Altstadt")
            XCTAssertEqual(area.maxZoom, 15)
            XCTAssertEqual(area.tileCount, plan.tileCount)
            XCTAssertEqual(area.tilePath, "/maps/basemap/{z}/{x}/{y}.svg")
            XCTAssertNil(area.bytes, "no archive made yet")
            XCTAssertTrue(area.pmtilesURL.hasSuffix("/api/map-areas/\(area.id).pmtiles"), area.pmtilesURL)
            XCTAssertEqual(
                created.headers.first(name: .location).map { $0.hasSuffix("/api/map-areas/\(area.id)") }, true)

            // The archive holds exactly the area's tiles, each as the map widget is served it.
            let download = try await app.send(.GET, "/api/map-areas/\(area.id).pmtiles", headers: account.bearer)
            XCTAssertEqual(download.status, .ok)
            XCTAssertEqual(download.headers.first(name: .contentType), "application/vnd.pmtiles")
            XCTAssertEqual(
                download.headers.first(name: .contentDisposition), #"attachment; filename="Zürich-Altstadt.pmtiles""#)
            let archive = try PMTiles.Archive(Data(buffer: download.body))
            XCTAssertEqual(Set(try archive.allTiles()), Set(plan.tiles))
            XCTAssertEqual(archive.maximumZoom, 15)
            let deep = Tile(containing: plan.box.center, zoom: 15)
            let served = try await app.send(.GET, "/maps/basemap/15/\(deep.x)/\(deep.y).svg", headers: account.bearer)
            XCTAssertEqual(try archive.bytes(of: deep).map { String(decoding: $0, as: UTF8.self) }, served.text)

            // A range, as a map app reads an archive over HTTP.
            var ranged = account.bearer
            ranged.add(name: .range, value: "bytes=0-6")
            let head = try await app.send(.GET, "/api/map-areas/\(area.id).pmtiles", headers: ranged)
            XCTAssertEqual(head.status, .partialContent)
            XCTAssertEqual(head.text, "PMTiles")

            let listed = try await app.send(.GET, "/api/map-areas", headers: account.bearer)
            let areas = try listed.decoded(DataEnvelope<[MapAreaResource]>.self).data
            XCTAssertEqual(areas.map(\.id), [area.id])
            XCTAssertEqual(areas.first?.bytes, download.body.readableBytes, "the archive's size, once made")
            let shown = try await app.send(.GET, "/api/map-areas/\(area.id)", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<MapAreaResource>.self).data.name, "Zürich Altstadt")

            // Nobody else sees it or its tiles.
            let other = try await app.makeAccount(email: "other@example.com")
            for path in ["/api/map-areas/\(area.id)", "/api/map-areas/\(area.id).pmtiles"] {
                let hidden = try await app.send(.GET, path, headers: other.bearer)
                XCTAssertEqual(hidden.status, .notFound, path)
            }
            let otherList = try await app.send(.GET, "/api/map-areas", headers: other.bearer)
            XCTAssertEqual(try otherList.decoded(DataEnvelope<[MapAreaResource]>.self).data, [])
            let notTheirs = try await app.send(.DELETE, "/api/map-areas/\(area.id)", headers: other.bearer)
            XCTAssertEqual(notTheirs.status, .notFound)
            let anonymous = try await app.send(.GET, "/api/map-areas")
            XCTAssertEqual(anonymous.status, .unauthorized)

            let archives = app.mapAreaArchives.directory
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: archives.path).count, 1)
            let deleted = try await app.send(.DELETE, "/api/map-areas/\(area.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            XCTAssertEqual(try deleted.decoded(MapAreaDeletedResource.self).id, area.id)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: archives.path), [], "its archive goes")
            let gone = try await app.send(.GET, "/api/map-areas/\(area.id).pmtiles", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            // Each address answers its own methods, though `{id}` and `{id}.pmtiles` share a route.
            let getEstimate = try await app.send(.GET, "/api/map-areas/estimate", headers: account.bearer)
            XCTAssertEqual(getEstimate.status, .methodNotAllowed)
            XCTAssertEqual(getEstimate.headers.first(name: .allow), "POST")
            for method in [HTTPMethod.DELETE, .OPTIONS, .PUT] {
                let archiveOnly = try await app.send(
                    method, "/api/map-areas/\(area.id).pmtiles", headers: account.bearer)
                XCTAssertEqual(archiveOnly.status, .methodNotAllowed, "\(method)")
                XCTAssertEqual(archiveOnly.headers.first(name: .allow), "GET, HEAD", "\(method)")
            }
            for path in ["/api/map-areas/not-a-uuid", "/api/map-areas/12.pmtiles"] {
                let missing = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(missing.status, .notFound, path)
            }
        }
    }

    func testBadAreasAreRefusedWithReasonsAndSaveNothing() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let bodies: [(String, String)] = [
                ("{}", "South is required."),
                (#"{"south": "a", "west": 8, "north": 47, "east": 9, "max_zoom": 12}"#, "South must be a number."),
                (
                    #"{"south": 47, "west": 8, "north": 99, "east": 9, "max_zoom": 12}"#,
                    "North must be a latitude the map shows (−85.05…85.05)."
                ),
                (
                    #"{"south": 47, "west": 8, "north": 48, "east": 9, "max_zoom": 18}"#,
                    "Deepest zoom must be a whole number from 0 to 17."
                ),
                (
                    #"{"south": 47, "west": 8, "north": 48, "east": 9, "max_zoom": 12, "name": "a\u0000"}"#,
                    "Name cannot hold the NUL character (U+0000)."
                ),
            ]
            for path in ["/api/map-areas", "/api/map-areas/estimate"] {
                for (body, message) in bodies {
                    let refused = try await app.send(.POST, path, headers: account.bearer, json: body)
                    XCTAssertEqual(refused.status, .unprocessableEntity, body)
                    XCTAssertEqual(refused.errorCode, 32, body)
                    let messages = try refused.json()["error"].flatMap {
                        ($0 as? [String: Any])?["message"] as? [String]
                    }
                    XCTAssertTrue(messages?.contains(message) == true, "\(body): \(refused.text)")
                }
            }
            let listed = try await app.send(.GET, "/api/map-areas", headers: account.bearer)
            XCTAssertEqual(try listed.decoded(DataEnvelope<[MapAreaResource]>.self).data, [])
        }
    }

    func testABoxTooBigForItsZoomIsKeptLessDeepAndSaysSo() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            // Switzerland to zoom 16, corners given the other way round.
            let body = #"{"south": 47.8, "west": 10.5, "north": 45.8, "east": 5.9, "max_zoom": 16}"#
            let estimate = try await app.send(.POST, "/api/map-areas/estimate", headers: account.bearer, json: body)
            let estimated = try estimate.decoded(DataEnvelope<MapAreaEstimateResource>.self).data
            XCTAssertEqual(estimated.maxZoom, 13)
            XCTAssertLessThanOrEqual(estimated.tileCount, 10_000)
            let created = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: body)
            let area = try created.decoded(DataEnvelope<MapAreaResource>.self).data
            XCTAssertEqual(area.maxZoom, 13)
            XCTAssertEqual(area.tileCount, estimated.tileCount)
            XCTAssertEqual([area.south, area.west, area.north, area.east], [45.8, 5.9, 47.8, 10.5])
        }
    }

    func testAnAccountKeepsAtMostAHundredAreas() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let small = #"{"south": 47.36, "west": 8.52, "north": 47.37, "east": 8.53, "max_zoom": 3}"#
            for _ in 0..<MapAreaService.maximumAreas {
                let created = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: small)
                XCTAssertEqual(created.status, .created)
            }
            let refused = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: small)
            XCTAssertEqual(refused.status, .conflict)
            XCTAssertTrue(
                refused.text.contains("An account keeps at most 100 map areas: delete one first."), refused.text)
        }
    }

    func testATileServerWhosePolicyAllowsItFillsTheAreaElseTheBasemapDoes() async throws {
        try await forEachDatabase { app, _, _ in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
            let serve: StandInRoutes = { routes in
                routes.get("t", ":z", ":x", ":y") { request in
                    // The sea far out has no tiles here: such a tile is left out, not a failure.
                    request.parameters.get("z") == "0"
                        ? Response(status: .notFound)
                        : Response(status: .ok, headers: ["Content-Type": "image/png"], body: .init(data: png))
                }
            }
            try await withStandIn(serve) { standIn in
                let template = standIn.baseURL + "/t/{z}/{x}/{y}.png"
                app.locifyConfig.outside.tileURLTemplate = template
                app.locifyConfig.outside.tileOfflineDownloadAllowed = true
                app.dependencies.tiles = URLTemplateTileFetcher(
                    template: template, http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"))
                let account = try await app.makeAccount()
                let small = #"{"south": 47.36, "west": 8.52, "north": 47.387, "east": 8.56, "max_zoom": 12}"#
                let created = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: small)
                let area = try created.decoded(DataEnvelope<MapAreaResource>.self).data
                XCTAssertEqual(area.source, "tile_server")
                XCTAssertEqual(area.tilePath, "/maps/tiles/{z}/{x}/{y}.png")
                let download = try await app.send(.GET, "/api/map-areas/\(area.id).pmtiles", headers: account.bearer)
                let archive = try PMTiles.Archive(Data(buffer: download.body))
                XCTAssertEqual(archive.tileType, .png)
                XCTAssertEqual(try archive.allTiles().count, area.tileCount - 1)
                XCTAssertEqual(try archive.bytes(of: try XCTUnwrap(Tile(zoom: 1, x: 1, y: 0))), png)
                XCTAssertEqual(standIn.requests.count, area.tileCount, "each tile fetched once")
                // Fetched through the tile cache: the map's own requests for these tiles fetch nothing more.
                _ = try await app.send(.GET, "/maps/tiles/1/1/0.png", headers: account.bearer)
                XCTAssertEqual(standIn.requests.count, area.tileCount)

                // Without the administrator's word, areas come from the basemap.
                app.locifyConfig.outside.tileOfflineDownloadAllowed = false
                let basemap = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: small)
                XCTAssertEqual(try basemap.decoded(DataEnvelope<MapAreaResource>.self).data.source, "basemap")
            }
        }
    }

    func testOpenStreetMapsPublicTileServersAreNeverDeclaredFitForOfflineDownload() throws {
        let directory = FileManager.default.temporaryDirectory.path
        XCTAssertThrowsError(
            try LocifyConfig.resolve(environment: ["LOCIFY_TILE_OFFLINE": "allowed"], dataDirectory: directory)
        ) { error in
            XCTAssertTrue(String(describing: error).contains("OpenStreetMap's public servers forbid it"), "\(error)")
        }
        XCTAssertThrowsError(
            try LocifyConfig.resolve(
                environment: [
                    "LOCIFY_TILE_OFFLINE": "allowed",
                    "LOCIFY_TILE_URL": "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png",
                ], dataDirectory: directory))
        XCTAssertThrowsError(
            try LocifyConfig.resolve(environment: ["LOCIFY_TILE_OFFLINE": "sure"], dataDirectory: directory))
        let own = try LocifyConfig.resolve(
            environment: [
                "LOCIFY_TILE_OFFLINE": "allowed", "LOCIFY_TILE_URL": "https://tiles.example.org/{z}/{x}/{y}.png",
            ],
            dataDirectory: directory)
        XCTAssertTrue(own.outside.tileOfflineDownloadAllowed)
        let unset = try LocifyConfig.resolve(environment: [:], dataDirectory: directory)
        XCTAssertFalse(unset.outside.tileOfflineDownloadAllowed)
    }

    func testSettingsListSaveAndDeleteAreasWithoutTheMapsScript() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let empty = try await browser.get("/settings/map-areas")
            XCTAssertEqual(empty.status, .ok)
            XCTAssertTrue(empty.text.contains("No area is saved yet."))
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains(#"<a href="/settings/map-areas">Map areas for offline use</a>"#))

            // Typed edges, one not a number: the page again, the reason beside the field, nothing saved.
            let refused = try await browser.post(
                "/settings/map-areas",
                form: [
                    "name": "Old town", "south": "47.36", "west": "8.52", "north": "north", "east": "8.56",
                    "max_zoom": "15.5",
                ])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(
                refused.text.contains(#"<p class="error" id="area-north-error">North must be a number.</p>"#),
                refused.text)
            XCTAssertTrue(
                refused.text.contains(
                    #"<p class="error" id="area-max-zoom-error">Deepest zoom must be a whole number.</p>"#),
                "a fraction of a zoom is refused, not cut")
            XCTAssertTrue(refused.text.contains(#"value="Old town""#), "what was typed stays")

            let saved = try await browser.post(
                "/settings/map-areas",
                form: [
                    "name": "Old town", "south": "47.36", "west": "8.52", "north": "47.387", "east": "8.56",
                    "max_zoom": "15",
                ])
            XCTAssertEqual(saved.status, .seeOther)
            let plan = try MapAreaDraft(south: 47.36, west: 8.52, north: 47.387, east: 8.56, maximumZoom: 15)
                .validated()
            let list = try await browser.get("/settings/map-areas")
            XCTAssertTrue(list.text.contains("“Old town” was saved: \(plan.tileCount) tiles to zoom 15."), list.text)
            XCTAssertTrue(list.text.contains("3 × 3 km to zoom 15, \(plan.tileCount) tiles · about"), list.text)
            let api = try await app.apiAccount(email: "grace@example.com")
            let areas = try await app.send(.GET, "/api/map-areas", headers: api.bearer)
                .decoded(DataEnvelope<[MapAreaResource]>.self).data
            let area = try XCTUnwrap(areas.first)
            XCTAssertTrue(list.text.contains(#"href="/api/map-areas/\#(area.id).pmtiles" download"#))

            // The map page outlines it and offers the form, with the box filled by its script.
            let map = try await browser.get("/map")
            XCTAssertTrue(map.text.contains("data-areas=\"[{&quot;"), "the outlines travel with the map")
            XCTAssertTrue(map.text.contains(#"data-map-area-form="home-map""#))

            let deleted = try await browser.post("/settings/map-areas/\(area.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let after = try await browser.get("/settings/map-areas")
            XCTAssertTrue(after.text.contains("“Old town” was deleted."))
            let none = try await app.send(.GET, "/api/map-areas", headers: api.bearer)
            XCTAssertEqual(try none.decoded(DataEnvelope<[MapAreaResource]>.self).data, [])
            let missing = try await browser.post("/settings/map-areas/\(area.id)/delete", form: [:])
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    /// An MBTiles file holding `tiles` (each a PNG-looking body naming the tile), rows counted from the south.
    private func makeMBTiles(format: String, tiles: [Tile]) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-\(UUID()).mbtiles").path
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query("CREATE TABLE metadata (name TEXT, value TEXT)")
        _ = try await connection.query(
            "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        _ = try await connection.query("INSERT INTO metadata VALUES ('format', ?)", [.text(format)])
        for tile in tiles {
            _ = try await connection.query(
                "INSERT INTO tiles VALUES (?, ?, ?, ?)",
                [
                    .integer(tile.zoom), .integer(tile.x), .integer((1 << tile.zoom) - 1 - tile.y),
                    .blob(ByteBuffer(data: Self.png(tile))),
                ])
        }
        try await connection.close()
        return path
    }

    private static func png(_ tile: Tile) -> Data { Data([0x89, 0x50, 0x4E, 0x47]) + Data("\(tile)".utf8) }

    /// A PMTiles archive of `tiles`, as a regional extract would hold them.
    private func makePMTiles(type: PMTiles.TileType, tiles: [Tile], box: MapBox) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-\(UUID()).pmtiles").path
        try PMTiles.archive(of: tiles.map { ($0, Self.png($0)) }, type: type, box: box).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    func testARasterMBTilesOrPMTilesFileIsTheMapsTilesAndFillsAreas() async throws {
        let region = try MapAreaDraft(south: 47.36, west: 8.52, north: 47.387, east: 8.56, maximumZoom: 10).validated()
        let files = [
            try await makeMBTiles(format: "png", tiles: region.tiles),
            try makePMTiles(type: .png, tiles: region.tiles, box: region.box),
        ]
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
        for path in files {
            try await forEachDatabase { app, _, _ in
                app.locifyConfig.outside.tileURLTemplate = nil
                app.basemapFile = try await openBasemapFile(
                    path: path, threadPool: app.threadPool, on: app.eventLoopGroup.any())
                let account = try await app.makeAccount()
                let inside = Tile(containing: region.box.center, zoom: 10)
                let served = try await app.send(
                    .GET, "/maps/tiles/10/\(inside.x)/\(inside.y).png", headers: account.bearer)
                XCTAssertEqual(served.status, .ok, path)
                XCTAssertEqual(Data(buffer: served.body), Self.png(inside))
                XCTAssertEqual(served.headers.first(name: .contentType), "image/png")
                let beyond = try await app.send(.GET, "/maps/tiles/10/0/0.png", headers: account.bearer)
                XCTAssertEqual(beyond.status, .notFound, "the map draws the basemap's tile there")
                let browser = WebClient(app: app)
                _ = try await browser.register()
                let map = try await browser.get("/map")
                XCTAssertTrue(
                    map.text.contains(#"data-tiles="/maps/tiles/{z}/{x}/{y}.png""#), "the map asks for its tiles")

                // An area to zoom 12 takes the file's tiles (to zoom 10, the file's deepest) and no others.
                let body = #"{"south": 47.36, "west": 8.52, "north": 47.387, "east": 8.56, "max_zoom": 12}"#
                let created = try await app.send(.POST, "/api/map-areas", headers: account.bearer, json: body)
                let area = try created.decoded(DataEnvelope<MapAreaResource>.self).data
                XCTAssertEqual(area.source, "basemap_file")
                XCTAssertEqual(area.tilePath, "/maps/tiles/{z}/{x}/{y}.png")
                let download = try await app.send(.GET, "/api/map-areas/\(area.id).pmtiles", headers: account.bearer)
                let archive = try PMTiles.Archive(Data(buffer: download.body))
                XCTAssertEqual(archive.tileType, .png)
                XCTAssertEqual(Set(try archive.allTiles()), Set(region.tiles))
                XCTAssertEqual(try archive.bytes(of: inside), Self.png(inside))
                await app.basemapFile?.close()
                app.basemapFile = nil
            }
        }
    }

    func testAFileThatIsNoRasterMBTilesOrPMTilesIsRefusedWithTheReason() async throws {
        let vector = try await makeMBTiles(format: "pbf", tiles: [])
        let vectorArchive = try makePMTiles(
            type: .vector, tiles: [], box: MapBox(south: 0, west: 0, north: 1, east: 1))
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID()).mbtiles").path
        try Data("just text, no database".utf8).write(to: URL(fileURLWithPath: text))
        defer {
            try? FileManager.default.removeItem(atPath: vector)
            try? FileManager.default.removeItem(atPath: vectorArchive)
            try? FileManager.default.removeItem(atPath: text)
        }
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let cases = [
            ("/no/such/region.mbtiles", "there is no readable file there"),
            (vector, "its format is pbf, not png, jpg or webp (vector MBTiles are not drawn)"),
            (text, "it is not"),
            (vectorArchive, "its tiles are not raster images (vector PMTiles are not drawn)"),
        ]
        for (path, reason) in cases {
            do {
                let opened = try await openBasemapFile(path: path, threadPool: .singleton, on: loop)
                await opened.close()
                XCTFail("\(path) was opened")
            } catch let failure as BasemapFileFailure {
                XCTAssertTrue(
                    failure.description.hasPrefix("LOCIFY_BASEMAP_FILE=\(path) cannot be used: "), failure.description)
                XCTAssertTrue(failure.description.contains(reason), failure.description)
            }
        }
        let directory = FileManager.default.temporaryDirectory.path
        XCTAssertThrowsError(
            try LocifyConfig.resolve(environment: ["LOCIFY_BASEMAP_FILE": "region.geojson"], dataDirectory: directory))
        let configured = try LocifyConfig.resolve(
            environment: ["LOCIFY_BASEMAP_FILE": "/srv/maps/alps.mbtiles"], dataDirectory: directory)
        XCTAssertEqual(configured.basemapFilePath, "/srv/maps/alps.mbtiles")
    }
}
