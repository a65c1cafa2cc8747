import Foundation
import LocifyCore
import NIOHTTP1

/// One map tile as the tile server sent it, with how long it may be kept.
struct FetchedTile: Sendable, Equatable {
    var contentType: String
    var bytes: Data
    /// From the answer's `Cache-Control: max-age`; OpenStreetMap's policy asks for at least 7 days.
    var maximumAge: TimeInterval
}

/// Fetches raster tiles from the configured XYZ server; the map falls back to the bundled basemap when
/// this throws.
protocol TileFetching: Sendable {
    func fetch(_ tile: Tile) async throws -> FetchedTile
}

/// `LOCIFY_TILE_URL=off`: no tile is fetched, and maps draw the bundled basemap.
struct TilesOff: TileFetching {
    func fetch(_ tile: Tile) async throws -> FetchedTile {
        throw OutsideServiceError(service: "The tile server (LOCIFY_TILE_URL is off)", reason: .notConfigured)
    }
}

/// Fills `{z}`, `{x}` and `{y}` (and `{s}` with `a`) in a URL template, e.g. OpenStreetMap's
/// `https://tile.openstreetmap.org/{z}/{x}/{y}.png`.
struct URLTemplateTileFetcher: TileFetching {
    static let minimumAge: TimeInterval = 7 * 24 * 3600
    let template: String
    let http: any HTTPFetching

    func url(for tile: Tile) -> String {
        template.replacingOccurrences(of: "{z}", with: String(tile.zoom))
            .replacingOccurrences(of: "{x}", with: String(tile.x))
            .replacingOccurrences(of: "{y}", with: String(tile.y))
            .replacingOccurrences(of: "{s}", with: "a")
    }

    func fetch(_ tile: Tile) async throws -> FetchedTile {
        let response = try await http.send(OutgoingRequest(url: url(for: tile), maximumBodyBytes: 2 * 1024 * 1024))
        guard response.isSuccess else {
            throw OutsideServiceError(service: "the tile server", reason: .status(Int(response.status.code)))
        }
        guard let type = response.headers.first(name: "Content-Type"), type.hasPrefix("image/") else {
            throw OutsideServiceError(service: "the tile server", reason: .unreadable("not an image"))
        }
        let maximumAge = response.headers.cacheControlMaximumAge.map(TimeInterval.init) ?? 0
        return FetchedTile(contentType: type, bytes: response.body, maximumAge: max(maximumAge, Self.minimumAge))
    }
}

extension HTTPHeaders {
    /// The `max-age` of `Cache-Control`, in seconds.
    var cacheControlMaximumAge: Int? {
        for directive in self[canonicalForm: "Cache-Control"] {
            let parts = directive.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "max-age" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
