import Foundation

/// The formats places are exported in, each with its file extension and media type.
public enum PlaceExportFormat: String, CaseIterable, Sendable {
    case gpx, kml, kmz, geojson, csv

    public var fileExtension: String { rawValue }

    /// The format holds the pictures themselves (KMZ); the others link to them, or (CSV) leave them out.
    public var holdsPictures: Bool { self == .kmz }

    public var mediaType: String {
        switch self {
        case .gpx: "application/gpx+xml"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .kmz: "application/vnd.google-earth.kmz"
        case .geojson: "application/geo+json"
        case .csv: "text/csv; charset=utf-8"
        }
    }

    /// The dated file name of an export made on `day`: `locify-places-2026-11-23.gpx`.
    public func fileName(on day: CalendarDate) -> String {
        "locify-places-\(day.description).\(fileExtension)"
    }

    /// The file's bytes for `places`; `documentName` names the KML document.
    public func file(_ places: [PlaceRecord], documentName: String = "Locify places") throws -> Data {
        switch self {
        case .gpx: Data(GPX.write(places).utf8)
        case .kml: Data(KML.write(places, documentName: documentName).utf8)
        case .kmz: try KML.writeKMZ(places, documentName: documentName)
        case .geojson: try GeoJSON.write(places)
        case .csv: Data(PlacesCSV.write(places).utf8)
        }
    }
}

extension PlaceRecord {
    /// A stored place as the formats carry it, with its category's name.
    public init(_ place: Place, categoryName: String?) {
        let fields = place.fields
        self.init(
            name: fields.name, coordinate: fields.coordinate, address: fields.address, notes: fields.notes,
            category: categoryName, isFavorite: fields.isFavorite, rating: fields.rating, createdAt: place.createdAt,
            externalID: fields.externalID)
    }
}
