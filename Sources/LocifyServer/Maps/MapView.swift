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

    init(id: String, label: String, markers: [Marker], zoom: Int = 14, isTall: Bool = false, tilesEnabled: Bool) {
        self.isTall = isTall
        self.id = id
        self.label = label
        let json = (try? JSONEncoder().encode(markers)).map { String(decoding: $0, as: UTF8.self) }
        self.markers = json ?? "[]"
        tilesURL = tilesEnabled ? "/maps/tiles/{z}/{x}/{y}.png" : ""
        basemapURL = "/maps/basemap/{z}/{x}/{y}.svg"
        self.zoom = zoom
        let first = markers.first.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
        fallbackURL =
            first.flatMap { MapLinks.show(.coordinate($0, label: markers.first?.label), in: .openStreetMap) }
            ?? "https://www.openstreetmap.org/"
    }
}

/// `GET /map`: every contact's addresses that have a position.
enum MapPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let map: MapView
        let placedCount: Int
        let unplacedCount: Int

        init(
            addresses: [ContactAddress], contacts: [Int: Contact], tilesEnabled: Bool, session: PageSession,
            pictureURL: (Contact) -> String? = { _ in nil }
        ) {
            layout = LayoutContext(title: "Map", section: .map, session: session)
            let placed = addresses.filter { $0.address.coordinate != nil }
            let markers = placed.compactMap { stored -> MapView.Marker? in
                guard let coordinate = stored.address.coordinate else { return nil }
                let contact = contacts[stored.contactID]
                let name = contact?.completeName ?? "Contact"
                return MapView.Marker(
                    lat: coordinate.latitude, lon: coordinate.longitude,
                    label: [name, stored.address.label].compactMap { $0 }.joined(separator: " · "),
                    detail: stored.address.lines().first, url: SiteURL.contact(stored.contactID).path,
                    linkText: "Open \(name)",
                    avatar: contact.map { AvatarView($0, imageURL: pictureURL($0), size: .line) })
            }
            map = MapView(
                id: "contacts-map", label: "Map of your contacts' addresses", markers: markers,
                tilesEnabled: tilesEnabled)
            placedCount = placed.count
            unplacedCount = addresses.count - placed.count
        }
    }

    static func load(_ request: Request) async throws -> Context {
        let addresses = try await request.addresses().all()
        let contacts = try await request.contacts().contacts(addresses.map(\.contactID))
        return Context(
            addresses: addresses, contacts: contacts,
            tilesEnabled: request.application.locifyConfig.outside.tileURLTemplate != nil,
            session: request.pageSession, pictureURL: request.pictureURL)
    }
}
