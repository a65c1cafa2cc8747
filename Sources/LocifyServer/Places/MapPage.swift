import Foundation
import LocifyCore
import Vapor

/// `GET /map`, the home page once signed in: the person's places and, as a layer that can be switched
/// off, their contacts' addresses; a search over the geocoder, the places and the addresses; a tap on
/// the map opens that point.
enum MapPage {
    /// Beyond this many places the map shows the newest ones, and says so.
    static let markerLimit = 5_000

    struct SearchResult: Encodable {
        let id: String
        let name: String
        let kind: String
        let detail: String?
        let coordinates: String
        let distance: String?
        /// The saved place or the contact, when it is one.
        let openURL: String?
        let openLabel: String?
        /// "Save as a place", for a geocoder's answer or a contact's address.
        let saveURL: String?
        let actions: MapActions
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let map: MapView
        let placesCount: Int
        let shownPlaces: Int
        let addressesCount: Int
        let unplacedCount: Int
        let showsContacts: Bool
        let contactsToggleURL: String
        let searchText: String
        let searchURL: String
        let clearSearchURL: String
        let searchField: FormField
        /// Filled by the map's script with the map's centre, so a search finds what is near it first.
        let nearField: FormField
        /// Keeps a search with the contacts' addresses hidden that way.
        let contactsOffField: FormField?
        /// The switch the map's script drives to show or hide the contacts' addresses.
        let contactsLayerField: FormField
        let searched: Bool
        let results: [SearchResult]
        let newPlaceURL: String
        let placesURL: String
        /// Saves the box in view for offline use.
        let mapAreaForm: MapAreaFormView
        let mapAreasURL: String
    }

    static func load(_ request: Request) async throws -> Context {
        let parameters = request.queryParameters
        let showsContacts = parameters["contacts"] != "off"
        let service = try request.places()
        let (newest, window) = try await service.page(
            filter: PlaceFilter(), sort: ListSort(.createdAt, descending: true),
            page: PageSelection(page: 1, limit: markerLimit))
        let names = try await service.categoryNames(for: newest)
        var markers = newest.map { MapView.Marker(place: $0.place, categoryName: names[$0.place.categoryID]) }
        let addresses = try await request.addresses().all()
        let placed = addresses.filter { $0.address.coordinate != nil }
        let contacts = try await request.contacts().contacts(placed.map(\.contactID))
        markers += placed.compactMap { stored -> MapView.Marker? in
            guard let coordinate = stored.address.coordinate else { return nil }
            let contact = contacts[stored.contactID]
            let name = contact?.completeName ?? "Contact"
            return MapView.Marker(
                lat: coordinate.latitude, lon: coordinate.longitude,
                label: [name, stored.address.label].compactMap { $0 }.joined(separator: " · "),
                detail: stored.address.lines().first, url: ContactPaths.contact(stored.contactID).path,
                linkText: "Open \(name)",
                avatar: contact.map { AvatarView($0, imageURL: request.pictureURL($0), size: .line) },
                layer: "contacts", approximately: stored.coordinatePrecision, around: stored.approximateArea())
        }
        if !showsContacts { markers.removeAll { $0.layer == "contacts" } }

        let text = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let near = parameters["near"].flatMap(PlaceFilter.coordinate)
        let preferredApp = request.preferredMapsApp
        let found = text.isEmpty ? [] : try await request.searchEverywhere(text, near: near, limit: 20)
        let results = found.enumerated().map { index, entry in
            result(entry.hit, meters: entry.meters, index: index, preferredApp: preferredApp)
        }
        // The results first and highlighted, numbered as the list under the map numbers them.
        markers =
            found.enumerated().map { index, entry in
                MapView.Marker(
                    lat: entry.hit.coordinate.latitude, lon: entry.hit.coordinate.longitude,
                    label: "\(index + 1). \(entry.hit.name)", detail: entry.hit.detail, url: "#result-\(index + 1)",
                    linkText: "See it in the results", layer: "results")
            } + markers
        let areas = try await request.mapAreas().all()
        return Context(
            layout: LayoutContext(title: "Map", section: .map, session: request.pageSession),
            map: MapView(
                id: "home-map", label: "Map of your places and your contacts' addresses", markers: markers,
                isTall: true, tilesEnabled: request.mapTilesEnabled,
                behaviour: .init(
                    explore: PlacePaths.mapPoint.path, saveURL: PlacePaths.new.path, locates: true,
                    focusLayer: found.isEmpty ? nil : "results")
            ).outlining(areas),
            placesCount: window.total, shownPlaces: newest.count, addressesCount: placed.count,
            unplacedCount: addresses.count - placed.count, showsContacts: showsContacts,
            contactsToggleURL: SitePaths.map.path(query: [("contacts", showsContacts ? "off" : nil), ("q", text)]),
            searchText: text, searchURL: PlacePaths.map.path,
            clearSearchURL: PlacePaths.map.path(query: [("contacts", showsContacts ? nil : "off")]),
            searchField: FormField(
                "q", label: "Search places, your contacts' addresses and the map", control: .search, value: text
            ).identified(as: "map-q"),
            nearField: .hidden("near", value: "", dataAttributes: [.init(name: "near-from-map", value: "")]),
            contactsOffField: showsContacts ? nil : .hidden("contacts", value: "off"),
            contactsLayerField: FormField(
                "", label: "Show contacts' addresses", control: .checkbox, isChecked: true, isHidden: true,
                dataAttributes: [
                    .init(name: "map-layer", value: "contacts"), .init(name: "map-target", value: "home-map"),
                ]
            ).identified(as: "layer-contacts"),
            searched: !text.isEmpty, results: results, newPlaceURL: PlacePaths.new.path,
            placesURL: SitePaths.places.path, mapAreaForm: MapAreaFormView(mapTarget: "home-map"),
            mapAreasURL: MapPaths.settingsAreas.path)
    }

    private static func result(_ hit: PlaceSearchHit, meters: Double?, index: Int, preferredApp: MapsApp)
        -> SearchResult
    {
        let coordinate = hit.coordinate
        let (kind, openURL, openLabel): (String, String?, String?) =
            switch hit.kind {
            case .place: ("Your place", hit.placeID.map { PlacePaths.place($0).path }, "Open the place")
            case .address:
                ("Contact's address", hit.contactID.map { ContactPaths.contact($0).path }, "Open the contact")
            case .geocoder: ("Found on the map", nil, nil)
            }
        return SearchResult(
            id: "result-\(index + 1)", name: hit.name, kind: kind, detail: hit.detail,
            coordinates: coordinate.displayText,
            distance: meters.map { DistanceText.kilometres($0 / 1000) }, openURL: openURL, openLabel: openLabel,
            saveURL: hit.kind == .place ? nil : NewPlaceLink.path(for: hit),
            actions: MapActions(
                hit.mapDestination, preferredApp: preferredApp,
                shareText: ShareText.place(
                    name: hit.name, address: hit.detail, coordinate: coordinate, isPrecise: hit.isPrecise),
                id: "result-\(index + 1)", title: hit.name))
    }
}
