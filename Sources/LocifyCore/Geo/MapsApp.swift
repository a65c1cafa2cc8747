/// The app a person's "directions" and "show on map" links open.
public enum MapsApp: String, CaseIterable, Sendable, Codable {
    case appleMaps = "apple"
    case googleMaps = "google"
    case openStreetMap = "openstreetmap"
    case organicMaps = "organic"
    case geoLink = "geo"

    public var displayName: String {
        switch self {
        case .appleMaps: "Apple Maps"
        case .googleMaps: "Google Maps"
        case .openStreetMap: "OpenStreetMap"
        case .organicMaps: "Organic Maps"
        case .geoLink: "geo: link (your device's default)"
        }
    }
}
