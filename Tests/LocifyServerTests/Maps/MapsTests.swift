import Foundation
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class MapsTests: XCTestCase {
    func testTheTileProxyFetchesOnceKeepsTheTileAndIsNoOpenRelay() async throws {
        try await forEachDatabase { app, clock, _ in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 9, 9])
            let serve: StandInRoutes = { routes in
                routes.get("t", ":z", ":x", ":y") { _ in
                    Response(status: .ok, headers: ["Content-Type": "image/png"], body: .init(data: png))
                }
            }
            try await withStandIn(serve) { standIn in
                let template = standIn.baseURL + "/t/{z}/{x}/{y}.png"
                app.locifyConfig.outside.tileURLTemplate = template
                app.dependencies.tiles = URLTemplateTileFetcher(
                    template: template, http: LiveHTTPClient(client: .shared, userAgent: "Locify/test"))
                let account = try await app.makeAccount()

                let first = try await app.send(.GET, "/maps/tiles/3/4/2.png", headers: account.bearer)
                XCTAssertEqual(first.status, .ok)
                XCTAssertEqual(Data(buffer: first.body), png)
                XCTAssertEqual(first.headers.first(name: .contentType), "image/png")
                XCTAssertEqual(first.headers.first(name: .cacheControl), "private, max-age=604800")
                let second = try await app.send(.GET, "/maps/tiles/3/4/2.png", headers: account.bearer)
                XCTAssertEqual(Data(buffer: second.body), png)
                XCTAssertEqual(standIn.requests.count, 1, "the second look is served from the cache")
                XCTAssertEqual(standIn.requests.first?.path, "/t/3/4/2.png")
                XCTAssertEqual(standIn.requests.first?.headers.first(name: "User-Agent"), "Locify/test")

                // No open relay: without a session or a token nothing is fetched.
                let anonymous = try await app.send(.GET, "/maps/tiles/3/4/3.png")
                XCTAssertEqual(anonymous.status, .unauthorized)
                let badToken = try await app.send(
                    .GET, "/maps/tiles/3/4/3.png", headers: ["Authorization": "Bearer not-a-token-at-all-0000"])
                XCTAssertEqual(badToken.status, .unauthorized)
                for path in [
                    "/maps/tiles/3/9/2.png", "/maps/tiles/25/1/1.png", "/maps/tiles/3/4/2.jpg", "/maps/tiles/a/b/c.png",
                ] {
                    let invalid = try await app.send(.GET, path, headers: account.bearer)
                    XCTAssertEqual(invalid.status, .notFound, path)
                }
                XCTAssertEqual(standIn.requests.count, 1)

                // A week later the tile is asked for again; with the tile server down, the old copy serves.
                clock.advance(by: 8 * 24 * 3600)
                app.dependencies.tiles = FakeTileFetcher { _ in
                    throw OutsideServiceError(service: "tiles", reason: .status(503))
                }
                let stale = try await app.send(.GET, "/maps/tiles/3/4/2.png", headers: account.bearer)
                XCTAssertEqual(stale.status, .ok)
                XCTAssertEqual(Data(buffer: stale.body), png)
                let never = try await app.send(.GET, "/maps/tiles/3/4/4.png", headers: account.bearer)
                XCTAssertEqual(never.status, .badGateway, "the widget draws the basemap tile instead")

                app.locifyConfig.outside.tileURLTemplate = nil
                let off = try await app.send(.GET, "/maps/tiles/3/4/2.png", headers: account.bearer)
                XCTAssertEqual(off.status, .notFound)
            }
        }
    }

    func testTheBasemapIsDrawnOnceForASignedInBrowserOrAToken() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let light = try await app.send(.GET, "/maps/basemap/2/2/1.svg", headers: account.bearer)
            XCTAssertEqual(light.status, .ok)
            XCTAssertEqual(light.headers.first(name: .contentType), "image/svg+xml")
            XCTAssertEqual(light.headers.first(name: .cacheControl), "private, max-age=2592000")
            XCTAssertTrue(light.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            XCTAssertEqual(light.text, Basemap.bundled.tile(try XCTUnwrap(Tile(zoom: 2, x: 2, y: 1))))
            let dark = try await app.send(.GET, "/maps/basemap/2/2/1.svg?palette=dark", headers: account.bearer)
            XCTAssertNotEqual(dark.text, light.text)
            _ = try await app.send(.GET, "/maps/basemap/2/2/1.svg", headers: account.bearer)
            XCTAssertEqual(app.basemapTiles.count, 2, "each palette drawn once")

            let browser = WebClient(app: app)
            _ = try await browser.register()
            let withSession = try await browser.get("/maps/basemap/0/0/0.svg")
            XCTAssertEqual(withSession.status, .ok)
            let anonymous = try await app.send(.GET, "/maps/basemap/0/0/0.svg")
            XCTAssertEqual(anonymous.status, .unauthorized)

            // Compressed for clients that accept it (through the real HTTP server, which compresses).
            var compressed: XCTHTTPResponse?
            var headers = account.bearer
            headers.add(name: .acceptEncoding, value: "gzip")
            try await app.testable(method: .running(port: 0)).test(
                .GET, "/maps/basemap/2/2/1.svg", headers: headers
            ) { response async in compressed = response }
            let gzipped = try XCTUnwrap(compressed)
            XCTAssertEqual(gzipped.status, .ok)
            XCTAssertEqual(gzipped.headers.first(name: .contentEncoding), "gzip")
            let bytes = Array(gzipped.body.readableBytesView)
            XCTAssertEqual(Array(bytes.prefix(2)), [0x1f, 0x8b], "a gzip stream")
            XCTAssertLessThan(bytes.count * 2, light.body.readableBytes, "less than half the drawing's size")
        }
    }

    func testTheBasemapCacheKeepsToItsBudget() throws {
        let cache = BasemapTiles(budget: 10)
        let tiles = try (0..<3).map { try XCTUnwrap(Tile(zoom: 2, x: $0, y: 0)) }
        for tile in tiles { cache.keep("12345", for: .init(tile: tile, isDark: false)) }
        XCTAssertEqual(cache.count, 2)
        XCTAssertNil(cache.cached(.init(tile: tiles[0], isDark: false)), "the oldest went first")
        XCTAssertEqual(cache.cached(.init(tile: tiles[2], isDark: false)), "12345")
    }
}
