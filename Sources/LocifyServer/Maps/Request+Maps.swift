import LocifyCore
import Vapor

extension Request {
    /// Whether maps ask the tile proxy (`LOCIFY_TILE_URL` not `off`); without it they draw the basemap.
    var mapTilesEnabled: Bool { application.locifyConfig.outside.tileURLTemplate != nil }

    /// The point in `?lat=&lon=`, range-checked; nil when either is missing or not a position.
    var coordinateParameters: Coordinate? {
        let parameters = queryParameters
        guard let latitude = parameters["lat"].flatMap(Double.init),
            let longitude = parameters["lon"].flatMap(Double.init),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

extension Coordinate {
    /// `48.8584, 2.2945`: as a page shows a position to read.
    var displayText: String { MapLinks.text(self).replacingOccurrences(of: ",", with: ", ") }
}

/// "Save as a place": the add form, filled in with a point and what is known of it.
enum NewPlaceLink {
    static func path(name: String?, address: String?, at coordinate: Coordinate) -> String {
        SiteURL.newPlace.path(query: [
            ("name", name), ("address", address == name ? nil : address),
            ("lat", MapLinks.number(coordinate.latitude)), ("lon", MapLinks.number(coordinate.longitude)),
        ])
    }

    /// A search result: a geocoder's answer is named by its first part ("Lyon" of "Lyon, France"), the
    /// whole of it becoming the address; a place or an address keeps its name and detail.
    static func path(for hit: PlaceSearchHit) -> String {
        hit.kind == .geocoder
            ? path(name: shortName(of: hit.name), address: hit.name, at: hit.coordinate)
            : path(name: hit.name, address: hit.detail, at: hit.coordinate)
    }

    /// "Lyon" of "Lyon, France".
    static func shortName(of displayName: String) -> String {
        displayName.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? displayName
    }
}
