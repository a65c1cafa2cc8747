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
        switch (app, destination) {
        case (.geoLink, .coordinate(let point, let label)):
            guard let label, !label.isEmpty else { return "geo:\(text(point))" }
            return "geo:0,0?q=\(text(point))(\(URIComponent.encoded(label)))"
        case (.geoLink, .address(let address)):
            return "geo:0,0?q=\(URIComponent.encoded(address))"
        case (.appleMaps, .coordinate(let point, let label)):
            return "https://maps.apple.com/?ll=\(text(point))&q=\(URIComponent.encoded(label ?? text(point)))"
        case (.appleMaps, .address(let address)):
            return "https://maps.apple.com/?q=\(URIComponent.encoded(address))"
        case (.googleMaps, .coordinate(let point, _)):
            return
                "https://www.google.com/maps/search/?api=1&query=\(number(point.latitude))%2C\(number(point.longitude))"
        case (.googleMaps, .address(let address)):
            return "https://www.google.com/maps/search/?api=1&query=\(URIComponent.encoded(address))"
        case (.openStreetMap, .coordinate(let point, _)):
            let lat = number(point.latitude)
            let lon = number(point.longitude)
            return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=\(zoom)/\(lat)/\(lon)"
        case (.openStreetMap, .address(let address)):
            return "https://www.openstreetmap.org/search?query=\(URIComponent.encoded(address))"
        case (.organicMaps, .coordinate(let point, let label)):
            return "om://map?v=1&ll=\(text(point))" + (label.map { "&n=\(URIComponent.encoded($0))" } ?? "")
        case (.organicMaps, .address(let address)):
            return "om://search?query=\(URIComponent.encoded(address))"
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
        let lat = number(point.latitude)
        let lon = number(point.longitude)
        return "https://osmand.net/map?pin=\(lat),\(lon)#\(zoom)/\(lat)/\(lon)"
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

    public static func place(name: String, address: String?, coordinate: Coordinate, notes: String? = nil) -> String {
        var parts = [name]
        if let address, !address.isEmpty { parts.append(address) }
        parts.append(MapLinks.text(coordinate))
        if let notes, !notes.isEmpty { parts.append(notes) }
        parts.append(MapLinks.show(.coordinate(coordinate, label: name), in: .openStreetMap) ?? "")
        return parts.joined(separator: "\n")
    }
}
