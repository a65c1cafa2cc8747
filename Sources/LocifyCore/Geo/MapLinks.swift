import Foundation

/// Where a link points: a coordinate (with a label for the pin) or, without one, the address text.
public enum MapDestination: Equatable, Sendable {
    case coordinate(Coordinate, label: String?)
    case address(String)
}

public enum TravelMode: String, CaseIterable, Sendable {
    case driving, walking, cycling, transit
}

/// "Show on map" and "directions" links for each maps app, as PLACES-FORMATS.md describes. The one
/// place such URLs are built.
public enum MapLinks {
    /// A link that shows the destination; nil where the app cannot take an address (OsmAnd).
    public static func show(_ destination: MapDestination, in app: MapsApp, zoom: Int = 16) -> String? {
        Shown(destination).link(in: app, zoom: zoom)
    }

    /// The show links of one destination for several apps: its numbers and its text are written and
    /// escaped once for all of them (each link wrote them anew: a tenth of a sync page's time).
    public struct Shown: Sendable {
        private let destination: MapDestination
        private let latitude: String
        private let longitude: String
        /// The label, or the address, escaped for a query.
        private let escaped: String

        public init(_ destination: MapDestination) {
            self.destination = destination
            switch destination {
            case .coordinate(let point, let label):
                latitude = MapLinks.number(point.latitude)
                longitude = MapLinks.number(point.longitude)
                escaped = label.map(URIComponent.encoded) ?? ""
            case .address(let address):
                (latitude, longitude) = ("", "")
                escaped = URIComponent.encoded(address)
            }
        }

        /// `show(_:in:zoom:)` of this destination.
        public func link(in app: MapsApp, zoom: Int = 16) -> String? {
            let (lat, lon, point) = (latitude, longitude, latitude + "," + longitude)
            switch (app, destination) {
            case (.geoLink, .coordinate(_, let label)):
                guard let label, !label.isEmpty else { return "geo:\(point)" }
                return "geo:0,0?q=\(point)(\(escaped))"
            case (.geoLink, .address):
                return "geo:0,0?q=\(escaped)"
            case (.appleMaps, .coordinate(_, let label)):
                // Without a label the pin is named by its position, escaped like any text.
                return "https://maps.apple.com/?ll=\(point)&q=\(label == nil ? lat + "%2C" + lon : escaped)"
            case (.appleMaps, .address):
                return "https://maps.apple.com/?q=\(escaped)"
            case (.googleMaps, .coordinate):
                return "https://www.google.com/maps/search/?api=1&query=\(lat)%2C\(lon)"
            case (.googleMaps, .address):
                return "https://www.google.com/maps/search/?api=1&query=\(escaped)"
            case (.openStreetMap, .coordinate):
                return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=\(zoom)/\(lat)/\(lon)"
            case (.openStreetMap, .address):
                return "https://www.openstreetmap.org/search?query=\(escaped)"
            case (.organicMaps, .coordinate(_, let label)):
                return "om://map?v=1&ll=\(point)" + (label == nil ? "" : "&n=\(escaped)")
            case (.organicMaps, .address):
                return "om://search?query=\(escaped)"
            }
        }

        /// `osmAnd(_:zoom:)` of a coordinate; nil for an address.
        public func osmAndLink(zoom: Int = 16) -> String? {
            guard case .coordinate = destination else { return nil }
            return MapLinks.osmAnd(latitude: latitude, longitude: longitude, zoom: zoom)
        }
    }

    /// A link that starts directions to the destination.
    public static func directions(to destination: MapDestination, in app: MapsApp, mode: TravelMode = .driving)
        -> String?
    {
        switch (app, destination) {
        case (.appleMaps, _):
            let flag =
                switch mode {
                case .walking: "w"
                case .transit: "r"
                case .driving, .cycling: "d"  // Apple Maps links have no cycling flag
                }
            return "https://maps.apple.com/?daddr=\(target(destination))&dirflg=\(flag)"
        case (.googleMaps, _):
            let travel = mode == .cycling ? "bicycling" : mode.rawValue
            return
                "https://www.google.com/maps/dir/?api=1&destination=\(target(destination, comma: "%2C"))&travelmode=\(travel)"
        case (.openStreetMap, .coordinate(let point, _)):
            let engine =
                switch mode {
                case .walking: "fossgis_osrm_foot"
                case .cycling: "fossgis_osrm_bike"
                case .driving, .transit: "fossgis_osrm_car"
                }
            return
                "https://www.openstreetmap.org/directions?engine=\(engine)&route=%3B\(number(point.latitude))%2C\(number(point.longitude))"
        case (.openStreetMap, .address), (.organicMaps, _), (.geoLink, _):
            // These apps route from the pin the show link drops.
            return show(destination, in: app)
        }
    }

    /// OsmAnd's web link, which opens the app where installed.
    public static func osmAnd(_ point: Coordinate, zoom: Int = 16) -> String {
        osmAnd(latitude: number(point.latitude), longitude: number(point.longitude), zoom: zoom)
    }

    private static func osmAnd(latitude: String, longitude: String, zoom: Int) -> String {
        "https://osmand.net/map?pin=\(latitude),\(longitude)#\(zoom)/\(latitude)/\(longitude)"
    }

    private static func target(_ destination: MapDestination, comma: String = ",") -> String {
        switch destination {
        case .coordinate(let point, _): "\(number(point.latitude))\(comma)\(number(point.longitude))"
        case .address(let address): URIComponent.encoded(address)
        }
    }

    /// `lat,lon` with up to six decimals, as geo: links and people write positions.
    public static func text(_ point: Coordinate) -> String {
        "\(number(point.latitude)),\(number(point.longitude))"
    }

    /// Up to six decimals (about 10 cm), trailing zeros dropped. Written from whole millionths rather
    /// than with `String(format:)`, which was half the time of a list of places (each place's links and
    /// share text write a dozen numbers).
    public static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return String(value) }
        let millionths = Int64((abs(value) * 1_000_000).rounded())
        var text = value < 0 && millionths != 0 ? "-" : ""
        text += String(millionths / 1_000_000)
        var fraction = millionths % 1_000_000
        guard fraction != 0 else { return text }
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        return text + "." + String(repeating: "0", count: digits - written.count) + written
    }

}

/// Plain text to share an address or a place: name, lines, and a link anyone can open.
public enum ShareText {
    public static func address(name: String?, lines: [String], coordinate: Coordinate?) -> String {
        var parts = [name].compactMap { $0 } + lines
        let link =
            coordinate.map { MapLinks.show(.coordinate($0, label: name), in: .openStreetMap) }
            ?? MapLinks.show(.address(lines.joined(separator: ", ")), in: .openStreetMap)
        if let link { parts.append(link) }
        return parts.joined(separator: "\n")
    }

    /// A place whose position is not `isPrecise` (the geocoder found only its area) is shared by its address.
    public static func place(
        name: String, address: String?, coordinate: Coordinate, notes: String? = nil, isPrecise: Bool = true
    ) -> String {
        var parts = [name]
        let address = address.flatMap { $0.isEmpty ? nil : $0 }
        if let address { parts.append(address) }
        let byText = !isPrecise && address != nil
        if !byText { parts.append(MapLinks.text(coordinate)) }
        if let notes, !notes.isEmpty { parts.append(notes) }
        let destination: MapDestination = byText ? .address(address ?? name) : .coordinate(coordinate, label: name)
        parts.append(MapLinks.show(destination, in: .openStreetMap) ?? "")
        return parts.joined(separator: "\n")
    }
}
