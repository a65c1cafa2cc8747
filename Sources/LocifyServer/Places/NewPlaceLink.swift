import LocifyCore

/// "Save as a place": the add form, filled in with a point and what is known of it.
enum NewPlaceLink {
    /// `kind`: what the map says the point is ("cafe"), for the form to offer its category.
    static func path(name: String?, address: String?, at coordinate: Coordinate, kind: String? = nil) -> String {
        PlacePaths.new.path(query: [
            ("name", name), ("address", address == name ? nil : address),
            ("lat", MapLinks.number(coordinate.latitude)), ("lon", MapLinks.number(coordinate.longitude)),
            ("kind", kind),
        ])
    }

    /// A search result: a geocoder's answer is named by its first part ("Lyon" of "Lyon, France"), the
    /// whole of it becoming the address; a place or an address keeps its name and detail.
    static func path(for hit: PlaceSearchHit) -> String {
        hit.kind == .geocoder
            ? path(name: shortName(of: hit.name), address: hit.name, at: hit.coordinate, kind: hit.placeKind)
            : path(name: hit.name, address: hit.detail, at: hit.coordinate)
    }

    /// "Lyon" of "Lyon, France".
    static func shortName(of displayName: String) -> String {
        displayName.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? displayName
    }
}
