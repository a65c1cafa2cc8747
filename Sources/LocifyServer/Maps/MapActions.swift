import LocifyCore

/// What a page offers for anything with a place on the map (a contact's address, a saved place, a
/// search result): directions in the person's maps app, the other apps in a menu, and the texts and
/// links to share it.
struct MapActions: Encodable {
    struct AppLink: Encodable {
        let label: String
        let url: String
    }

    /// Prefixes the ids of the share menu's elements, unique on the page.
    let id: String
    /// What is shared and gone to, for the share sheet's title.
    let title: String
    let directionsURL: String
    let directionsLabel: String
    let otherApps: [AppLink]
    /// The place shown (not directions) in the person's app: the link that is shared.
    let showURL: String
    let geoURL: String
    let shareText: String
    /// The share text and link, to select and copy where no script does it.
    let shareTextField: FormField
    let shareLinkField: FormField

    init(
        _ destination: MapDestination, preferredApp: MapsApp, shareText: String, id: String = "", title: String = ""
    ) {
        self.id = id
        self.title = title
        directionsURL = MapLinks.directions(to: destination, in: preferredApp) ?? ""
        directionsLabel = "Directions in \(preferredApp == .geoLink ? "your maps app" : preferredApp.displayName)"
        otherApps = MapsApp.allCases.filter { $0 != preferredApp }.compactMap { app in
            MapLinks.directions(to: destination, in: app).map {
                AppLink(label: app == .geoLink ? "Your device's maps app (geo: link)" : app.displayName, url: $0)
            }
        }
        // A geo: link opens nothing on a desktop: the shared link is a web map's then.
        showURL =
            MapLinks.show(destination, in: preferredApp == .geoLink ? .openStreetMap : preferredApp)
            ?? MapLinks.show(destination, in: .openStreetMap) ?? ""
        geoURL = MapLinks.show(destination, in: .geoLink) ?? ""
        self.shareText = shareText
        shareTextField = FormField(
            "", label: "Text", control: .textarea, value: shareText, rows: 5, isReadOnly: true, styleClass: "share-text"
        ).identified(as: id + "-share-text")
        shareLinkField = FormField(
            "", label: "Link", control: .url, value: showURL, isReadOnly: true, styleClass: "share-text"
        ).identified(as: id + "-share-link")
    }
}
