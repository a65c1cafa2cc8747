extension PathParameter {
    static let tileZoom = PathParameter("z")
    static let tileColumn = PathParameter("x")
    static let tileFile = PathParameter("file")
}

/// The map widget's images: a static map, and the tiles (the bundled basemap's and the tile server's,
/// fetched through this server).
enum MapPaths {
    private static let maps = SitePath("maps")
    static let staticMap = maps.appending("static.svg")
    static let basemapTile = maps.appending("basemap").appending(.tileZoom).appending(.tileColumn)
        .appending(.tileFile)
    static let tile = maps.appending("tiles").appending(.tileZoom).appending(.tileColumn).appending(.tileFile)
}
