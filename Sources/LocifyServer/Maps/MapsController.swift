import LocifyCore
import Vapor

/// `/maps/basemap/{z}/{x}/{y}.svg` (the offline basemap) and `/maps/tiles/{z}/{x}/{y}.png` (the caching
/// tile proxy). The map widget asks the proxy and falls back to the basemap tile by tile.
struct MapsController: RouteCollection {
    static let maximumZoom = 19

    func boot(routes: any RoutesBuilder) throws {
        let maps = routes.grouped(MapAccess())
        maps.get(MapPaths.basemapTile, use: basemap)
        maps.get(MapPaths.tile, use: rasterTile)
        maps.get(MapPaths.staticMap, use: staticMap)
    }

    /// `GET /maps/static.svg?lat=&lon=[&zoom=]`: a 480 × 240 picture of the basemap with a pin at the
    /// point, for previews that show without JavaScript (`<img>` of it scales to the page).
    func staticMap(request: Request) async throws -> Response {
        guard let center = request.coordinateParameters else {
            throw ValidationFailure(field: "lat", "lat and lon must be a position (−90…90, −180…180).")
        }
        let parameters = request.queryParameters
        let zoom = min(max(parameters["zoom"].flatMap(Int.init) ?? StaticMapLink.defaultZoom, 1), 17)
        let isDark = parameters["palette"] == "dark"
        let svg = try await request.application.cpuWork.offloaded {
            Basemap.bundled.staticMap(
                center: center, zoom: zoom, width: 480, height: 240,
                palette: isDark ? .dark : .light)
        }
        let response = Response(status: .ok, body: .init(string: svg))
        response.headers.contentType = HTTPMediaType(type: "image", subType: "svg+xml")
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
        return response
    }

    /// The tile in the path; `ext` is the file extension the route serves.
    private func tile(_ request: Request, ext: String) throws -> Tile {
        guard let file = request.pathText(.tileFile), file.hasSuffix("." + ext),
            let z = request.pathText(.tileZoom).flatMap(Int.init), z <= Self.maximumZoom,
            let x = request.pathText(.tileColumn).flatMap(Int.init), let y = Int(file.dropLast(ext.count + 1)),
            let tile = Tile(zoom: z, x: x, y: y)
        else { throw AppError.notFound }
        return tile
    }

    func basemap(request: Request) async throws -> Response {
        let tile = try tile(request, ext: "svg")
        let key = BasemapTiles.Key(tile: tile, isDark: request.queryParameters["palette"] == "dark")
        let cache = request.application.basemapTiles
        let svg: String
        if let cached = cache.cached(key) {
            svg = cached
        } else {
            svg = try await request.application.cpuWork.offloaded {
                Basemap.bundled.tile(tile, palette: key.isDark ? .dark : .light)
            }
            cache.keep(svg, for: key)
        }
        let response = Response(status: .ok, body: .init(string: svg))
        response.headers.contentType = HTTPMediaType(type: "image", subType: "svg+xml")
        // The drawing changes only with a new version of Locify.
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=2592000")
        response.headers.replaceOrAdd(
            name: .eTag, value: "\"basemap-\(LocifyConfig.version)-\(key.isDark ? "dark" : "light")\"")
        // SVG text shrinks to a fraction gzipped: a map screen of tiles, and an area saved for offline use,
        // comes down that much faster (only to clients that accept gzip).
        response.headers.responseCompression = .enable
        return response
    }

    func rasterTile(request: Request) async throws -> Response {
        let tile = try tile(request, ext: "png")
        guard request.mapTilesEnabled else { throw MapError.tilesOff }
        if let file = request.application.basemapFile {
            if let bytes = try await file.bytes(of: tile) {
                let response = Response(status: .ok, body: .init(data: bytes))
                response.headers.replaceOrAdd(name: .contentType, value: file.contentType)
                response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
                return response
            }
            // Beyond the file's region, the tile server's tile if there is one, else the drawn basemap's.
            guard request.application.locifyConfig.outside.tileURLTemplate != nil else { throw AppError.notFound }
        }
        let fetcher = request.dependencies.tiles
        let now = request.now
        let (data, entry): (Data, TileCache.Entry)
        do {
            (data, entry) = try await request.application.tileCache.tile(tile, now: now) { try await fetcher.fetch($0) }
        } catch let failure as OutsideServiceError where failure.reason == .status(404) {
            throw AppError.notFound
        } catch {
            request.logger.warning("Tile \(tile) could not be fetched: \(error)")
            throw MapError.tileServerFailed
        }
        let response = Response(status: .ok, body: .init(data: data))
        response.headers.replaceOrAdd(name: .contentType, value: entry.contentType)
        let seconds = max(0, Int(entry.expiresAt.timeIntervalSince(now)))
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=\(seconds)")
        return response
    }
}

/// The address of a static map of one point, for an `<img>`.
enum StaticMapLink {
    static let defaultZoom = 14

    static func path(_ coordinate: Coordinate, zoom: Int = defaultZoom) -> String {
        MapPaths.staticMap.path(query: [
            ("lat", MapLinks.number(coordinate.latitude)), ("lon", MapLinks.number(coordinate.longitude)),
            ("zoom", String(zoom)),
        ])
    }
}

/// Why a map tile is not served; the widget draws the basemap tile instead.
enum MapError: AppFailure {
    case tilesOff
    case tileServerFailed

    var kind: FailureKind {
        switch self {
        case .tilesOff: .notFound
        case .tileServerFailed: .outsideServiceFailed
        }
    }

    var messages: [String] {
        switch self {
        case .tilesOff: ["Map tiles are off on this server (LOCIFY_TILE_URL=off); the basemap is drawn instead."]
        case .tileServerFailed: ["The tile server could not be reached; the basemap is drawn instead."]
        }
    }
}

extension Application {
    private struct BasemapTilesKey: StorageKey {
        typealias Value = BasemapTiles
    }

    private struct TileCacheKey: StorageKey {
        typealias Value = TileCache
    }

    var basemapTiles: BasemapTiles {
        get { configured(BasemapTilesKey.self) }
        set { storage[BasemapTilesKey.self] = newValue }
    }

    var tileCache: TileCache {
        get { configured(TileCacheKey.self) }
        set { storage[TileCacheKey.self] = newValue }
    }
}
