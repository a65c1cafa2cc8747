/// How exact a geocoding result is.
public enum GeocodingPrecision: String, Sendable, Comparable, CaseIterable {
    case country, city, street, building

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

public struct GeocodingQuery: Sendable, Equatable {
    /// Free text: a place name, or an address whose parts are separated by commas.
    public var text: String
    /// ISO alpha-2 code; results outside it are left out.
    public var country: String?
    /// A province, state or region, as a code or a name; breaks ties between places of the same name.
    public var province: String?
    /// Prefer results near this point.
    public var near: Coordinate?
    public var limit: Int

    public init(text: String, country: String? = nil, province: String? = nil, near: Coordinate? = nil, limit: Int = 5)
    {
        self.text = text
        self.country = country
        self.province = province
        self.near = near
        self.limit = limit
    }
}

public struct GeocodingResult: Sendable, Equatable {
    public var coordinate: Coordinate
    public var displayName: String
    public var countryCode: String?
    public var precision: GeocodingPrecision
    /// Which geocoder answered ("gazetteer", "nominatim").
    public var source: String

    public init(
        coordinate: Coordinate, displayName: String, countryCode: String?, precision: GeocodingPrecision, source: String
    ) {
        self.coordinate = coordinate
        self.displayName = displayName
        self.countryCode = countryCode
        self.precision = precision
        self.source = source
    }
}

/// Turns text into places and places into text. One protocol for the bundled gazetteer and for
/// outside services such as Nominatim.
public protocol Geocoder: Sendable {
    func search(_ query: GeocodingQuery) async throws -> [GeocodingResult]
    func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult?
}
