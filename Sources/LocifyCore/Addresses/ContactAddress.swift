import Foundation

/// Where an address's coordinates stand with the geocoder.
public enum GeocodeStatus: String, Sendable, CaseIterable, Codable {
    /// Not geocoded: the coordinates were typed, or there is no geocoder.
    case none
    /// Waiting for the background geocoder.
    case pending
    case done
    case notFound = "not_found"
}

/// The geocoding state of an address: its status and, once found, how exact and from which geocoder.
public struct GeocodeState: Equatable, Sendable {
    public var status: GeocodeStatus
    public var precision: GeocodingPrecision?
    /// The geocoder that found the coordinates, or `user` for coordinates typed in.
    public var source: String?

    public init(status: GeocodeStatus, precision: GeocodingPrecision? = nil, source: String? = nil) {
        self.status = status
        self.precision = precision
        self.source = source
    }

    public static let userSource = "user"
    public static let notGeocoded = GeocodeState(status: .none)
    public static let pending = GeocodeState(status: .pending)
    public static let typedByUser = GeocodeState(status: .none, source: userSource)
    public static let notFound = GeocodeState(status: .notFound)

    public var isTypedByUser: Bool { source == Self.userSource }
}

/// A contact's address as stored: the validated address, its owner and contact, and its geocoding.
public struct ContactAddress: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var address: PostalAddress
    public var geocode: GeocodeState
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, address: PostalAddress, geocode: GeocodeState,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.address = address
        self.geocode = geocode
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// How exact the position is; nil without one. A position no geocoder found (typed, picked, from a card
    /// or a file) is a person's: `manual`.
    public var coordinatePrecision: CoordinatePrecision? {
        guard address.coordinate != nil else { return nil }
        return geocode.precision.map(CoordinatePrecision.init) ?? .manual
    }

    /// Where map links point: the coordinates when they mark the street or better, else the address text.
    public func mapDestination(lines: [String]) -> MapDestination {
        address.mapDestination(lines: lines, precision: coordinatePrecision)
    }

    /// "around Berlin" for a pin the geocoder could only put in the city (or region, or country); nil otherwise.
    public func approximateArea(countries: CountryCatalog = .bundled) -> String? {
        address.approximateArea(precision: coordinatePrecision, countries: countries)
    }

    /// No position, and the geocoder has given up on it: only a person can place its pin now.
    public var needsPinByHand: Bool { address.coordinate == nil && geocode.status == .notFound }
}

/// What saving an address does to its coordinates: coordinates a person typed are kept and never
/// replaced by a geocoder; otherwise an address whose text is new or changed loses its old coordinates
/// and waits for the geocoder.
public enum AddressGeocoding {
    public struct Outcome: Equatable, Sendable {
        public var coordinate: Coordinate?
        public var geocode: GeocodeState
        /// Whether the background geocoder should look this address up.
        public var needsLookUp: Bool { geocode.status == .pending }
    }

    /// - Parameters:
    ///   - address: the validated address being saved.
    ///   - stored: the address and state before this save; nil when creating.
    ///   - coordinatesSent: whether this save set the coordinates (typed in, or cleared).
    ///   - geocoderEnabled: false when `LOCIFY_GEOCODER=off`.
    public static func outcome(
        saving address: PostalAddress, over stored: (address: PostalAddress, geocode: GeocodeState)?,
        coordinatesSent: Bool, geocoderEnabled: Bool
    ) -> Outcome {
        let lookUp = geocoderEnabled ? GeocodeState.pending : .notGeocoded
        if coordinatesSent {
            guard let coordinate = address.coordinate else { return Outcome(coordinate: nil, geocode: lookUp) }
            return Outcome(coordinate: coordinate, geocode: .typedByUser)
        }
        guard let stored else {
            return address.coordinate.map { Outcome(coordinate: $0, geocode: .typedByUser) }
                ?? Outcome(coordinate: nil, geocode: lookUp)
        }
        if stored.geocode.isTypedByUser
            || address.values == stored.address.values
                && address.countryCode == stored.address.countryCode
        {
            return Outcome(coordinate: stored.address.coordinate, geocode: stored.geocode)
        }
        return Outcome(coordinate: nil, geocode: lookUp)
    }
}

extension PostalAddress {
    /// What the geocoder is asked: the address's parts, most exact first, within its country.
    public var geocodingQuery: GeocodingQuery {
        let text = [street, postalCode, city, province].compactMap { $0 }.joined(separator: ", ")
        return GeocodingQuery(text: text, country: countryCode, province: province, limit: 1)
    }
}
