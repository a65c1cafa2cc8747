/// How exact a geocoding result is.
public enum GeocodingPrecision: String, Sendable, Comparable, CaseIterable {
    case country, region, city, street, building

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
    /// What the place is, when the geocoder says (OpenStreetMap's `type`: "cafe", "museum"), for the category
    /// a new place is offered (`PlaceCategory.suggested(forKind:among:)`).
    public var placeKind: String?

    public init(
        coordinate: Coordinate, displayName: String, countryCode: String?, precision: GeocodingPrecision,
        source: String,
        placeKind: String? = nil
    ) {
        self.placeKind = placeKind
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
    /// Named places around `coordinate`, nearest first: what a place being added there may be.
    func nearby(_ coordinate: Coordinate, limit: Int) async throws -> [GeocodingResult]
}

extension Geocoder {
    /// A geocoder that can only name one point names what is there.
    public func nearby(_ coordinate: Coordinate, limit: Int) async throws -> [GeocodingResult] {
        guard limit > 0, let found = try await reverse(coordinate) else { return [] }
        return [found]
    }
}

/// How exactly a stored coordinate marks its address or place: `manual` when a person gave it (typed, picked
/// on the map, or brought in a file), else as exact as the geocoder that found it.
public enum CoordinatePrecision: String, Sendable, CaseIterable, Codable {
    case manual, building, street, city, region, country

    public init(_ geocoded: GeocodingPrecision) {
        switch geocoded {
        case .building: self = .building
        case .street: self = .street
        case .city: self = .city
        case .region: self = .region
        case .country: self = .country
        }
    }

    /// The street or better: a maps app is sent to the coordinates. Anything coarser sends the address text,
    /// which every maps app finds at street level itself (a city's centre is not the person's door).
    public var isStreetLevel: Bool {
        switch self {
        case .manual, .building, .street: true
        case .city, .region, .country: false
        }
    }

    /// About how far the true spot may lie from the pin, in metres, for the circle an approximate pin is drawn
    /// as; nil for street-level pins.
    public var radiusInMetres: Double? {
        switch self {
        case .manual, .building, .street: nil
        case .city: 5_000
        case .region: 60_000
        case .country: 300_000
        }
    }
}
