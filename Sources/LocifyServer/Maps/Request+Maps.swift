import LocifyCore
import Vapor

extension Request {
    /// Whether maps ask for raster tiles (`LOCIFY_TILE_URL` not `off`, or a basemap file); without them
    /// they draw the basemap.
    var mapTilesEnabled: Bool {
        application.locifyConfig.outside.tileURLTemplate != nil || application.basemapFile != nil
    }

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
