import Foundation
import LocifyCore
import Vapor

/// What a page needs to draw a map: its markers and where the widget fetches tiles. The markers travel as
/// JSON in a data attribute (no inline script).
struct MapView: Encodable {
    struct Marker: Encodable {
        let lat: Double
        let lon: Double
        let label: String
        let detail: String?
        let url: String?
        let linkText: String?
        /// The contact's avatar in the popup: initials on their colour, and the picture when there is one.
        var avatar: AvatarView?
        /// The layer a switch beside the map can hide (`places`, `contacts`), also the marker's colour.
        var layer: String?
        /// For a pin coarser than the street: how far the true spot may lie, drawn as a circle, and what it
        /// stands for ("around Berlin"), said beside the label.
        var radius: Double?
        var around: String?

        init(
            lat: Double, lon: Double, label: String, detail: String?, url: String?, linkText: String?,
            avatar: AvatarView? = nil, layer: String? = nil, approximately precision: CoordinatePrecision? = nil,
            around: String? = nil
        ) {
            self.lat = lat
            self.lon = lon
            self.label = label
            self.detail = detail
            self.url = url
            self.linkText = linkText
            self.avatar = avatar
            self.layer = layer
            radius = precision?.radiusInMetres
            self.around = radius == nil ? nil : around
        }
    }

    /// What the map does beyond showing markers (see the widget in `js/map.js`).
    struct Behaviour: Encodable {
        /// The ids of the latitude and longitude inputs a movable pin keeps.
        var pick: String?
        /// The page a tap on the map opens for that point.
        var explore: String?
        /// Where "Save as a place" goes for a tapped point.
        var saveURL: String?
        /// Centre on the person's position when the browser may tell it.
        var locates = false
        /// Open centred on the first marker (the page's subject) rather than showing every marker.
        var centresOnFirst = false
        /// Open showing this layer's markers (a search's results) rather than every marker or the person's
        /// position.
        var focusLayer: String?

        static let none = Behaviour()
    }

    let id: String
    let label: String
    let markers: String
    let tilesURL: String
    let basemapURL: String
    let zoom: Int
    /// A page-sized map rather than a preview.
    let isTall: Bool
    /// Where the map opens in a browser without JavaScript.
    let fallbackURL: String
    let behaviour: Behaviour
    /// The areas kept for offline use, drawn as outlines: JSON of `{name, south, west, north, east}`.
    private(set) var areas = ""

    init(
        id: String, label: String, markers: [Marker], zoom: Int = 14, isTall: Bool = false, tilesEnabled: Bool,
        behaviour: Behaviour = .none
    ) {
        self.isTall = isTall
        self.behaviour = behaviour
        self.id = id
        self.label = label
        let json = (try? JSONEncoder().encode(markers)).map { String(decoding: $0, as: UTF8.self) }
        self.markers = json ?? "[]"
        tilesURL = tilesEnabled ? MapPaths.tile("{z}", "{x}", "{y}.png").path : ""
        basemapURL = Self.basemapTemplate
        self.zoom = zoom
        let first = markers.first.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
        fallbackURL =
            first.flatMap { MapLinks.show(.coordinate($0, label: markers.first?.label), in: .openStreetMap) }
            ?? "https://www.openstreetmap.org/"
    }
}

extension MapView {
    private struct Outline: Encodable {
        let name: String
        let south: Double
        let west: Double
        let north: Double
        let east: Double
    }

    /// The map with the outlines of `areas`.
    func outlining(_ areas: [MapArea]) -> MapView {
        var copy = self
        let outlines = areas.map {
            Outline(
                name: $0.plan.name, south: $0.plan.box.south, west: $0.plan.box.west, north: $0.plan.box.north,
                east: $0.plan.box.east)
        }
        copy.areas = (try? JSONEncoder().encode(outlines)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return copy
    }

    /// The basemap's tile address, `{z}`, `{x}` and `{y}` standing for the tile.
    static let basemapTemplate = MapPaths.basemapTile("{z}", "{x}", "{y}.svg").path

    /// A form's map whose pin a tap places and a drag moves, kept in the `latitude` and `longitude` inputs:
    /// close on the point already chosen, else wide and on the person's position when the browser tells it.
    static func pinPicker(id: String, at point: Coordinate?, tilesEnabled: Bool) -> MapView {
        MapView(
            id: id, label: "Map: tap to place the pin, or drag it", markers: [], zoom: point == nil ? 5 : 15,
            tilesEnabled: tilesEnabled, behaviour: .init(pick: "latitude,longitude", locates: point == nil))
    }
}

extension MapView {
    /// Close enough for the street, or far enough out to show all the area an approximate pin stands for.
    static func zoom(showing precision: CoordinatePrecision?) -> Int {
        switch precision {
        case .city: 11
        case .region: 8
        case .country: 5
        case .manual, .building, .street, nil: 14
        }
    }
}
