import Foundation
import LocifyCore
import NIOCore

/// Street-level geocoding by a Nominatim server (`LOCIFY_GEOCODER=nominatim`). Its usage policy asks for
/// an identifying User-Agent (the shared HTTP client sends one) and at most one request a second, which
/// `spacing` enforces for this instance.
struct NominatimGeocoder: Geocoder {
    let baseURL: String
    let http: any HTTPFetching
    let spacing: RequestSpacing
    var timeout: TimeAmount = .seconds(10)

    func search(_ query: GeocodingQuery) async throws -> [GeocodingResult] {
        var parameters = [
            ("q", query.text), ("format", "jsonv2"), ("addressdetails", "1"), ("limit", String(max(1, query.limit))),
        ]
        if let country = query.country { parameters.append(("countrycodes", country.lowercased())) }
        if let near = query.near {
            // About 20 km around the point, preferred but not required (no `bounded`).
            let west = max(-180, near.longitude - 0.15)
            let east = min(180, near.longitude + 0.15)
            let north = min(90, near.latitude + 0.1)
            let south = max(-90, near.latitude - 0.1)
            parameters.append(
                ("viewbox", [west, north, east, south].map { MapLinks.number($0) }.joined(separator: ",")))
        }
        return try await fetch(path: "search", parameters: parameters)
    }

    func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult? {
        let parameters = [
            ("lat", String(coordinate.latitude)), ("lon", String(coordinate.longitude)), ("format", "jsonv2"),
        ]
        return try await fetch(path: "reverse", parameters: parameters, single: true).first
    }

    private func fetch(
        path: String, parameters: [(String, String)], single: Bool = false
    ) async throws -> [GeocodingResult] {
        var components = URLComponents()
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        let url = "\(baseURL)/\(path)?\(components.percentEncodedQuery ?? "")"
        try await spacing.wait()
        let response = try await http.send(OutgoingRequest(url: url, timeout: timeout, maximumBodyBytes: 1024 * 1024))
        guard response.isSuccess else {
            throw OutsideServiceError(service: "Nominatim", reason: .status(Int(response.status.code)))
        }
        do {
            // `reverse` answers one object (or an error object when nothing is there).
            if single {
                if let error = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                    error["error"] != nil
                {
                    return []
                }
                return try NominatimResults.parse(Data("[".utf8) + response.body + Data("]".utf8))
            }
            return try NominatimResults.parse(response.body)
        } catch {
            throw OutsideServiceError(service: "Nominatim", reason: .unreadable(String(describing: error)))
        }
    }
}

/// Keeps requests to one service at least `interval` apart across every task of this process.
actor RequestSpacing {
    let interval: Duration
    private var next = ContinuousClock.now

    init(interval: Duration) {
        self.interval = interval
    }

    /// Returns when this caller may send; callers are let through one `interval` after another.
    func wait() async throws {
        let now = ContinuousClock.now
        let slot = max(now, next)
        next = slot + interval
        if slot > now { try await Task.sleep(until: slot, clock: .continuous) }
    }
}
