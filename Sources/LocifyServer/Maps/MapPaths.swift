import LocifyCore

extension PathParameter {
    static let tileZoom = PathParameter("z")
    static let tileColumn = PathParameter("x")
    static let tileFile = PathParameter("file")
    /// A saved area's uuid (`…/{id}`), or its archive's file name (`…/{id}.pmtiles`).
    static let mapArea = PathParameter("mapArea")
}

/// The map widget's images: a static map, and the tiles (the bundled basemap's and the tile server's,
/// fetched through this server); the areas kept for offline use.
enum MapPaths {
    private static let maps = SitePath("maps")
    static let staticMap = maps.appending("static.svg")
    static let basemapTile = maps.appending("basemap").appending(.tileZoom).appending(.tileColumn)
        .appending(.tileFile)
    static let tile = maps.appending("tiles").appending(.tileZoom).appending(.tileColumn).appending(.tileFile)

    static let apiAreas = SitePaths.api.appending("map-areas")
    static let apiArea = apiAreas.appending(text: .mapArea)
    static let apiEstimate = apiAreas.appending("estimate")
    /// Settings → Map areas, and the form that saves one without the map's script.
    static let settingsAreas = SitePaths.settings.appending("map-areas")
    static let deleteArea = settingsAreas.appending(text: .mapArea).appending("delete")

    static let archiveSuffix = ".pmtiles"

    /// `/api/map-areas/{uuid}.pmtiles`
    static func archive(_ area: MapArea) -> SiteLink {
        apiArea(area.uuid.lowercasedText + archiveSuffix)
    }
}
