import Foundation

/// One answer of the combined search: a saved place, a contact's address, or a geocoder result.
public struct PlaceSearchHit: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case place
        case address
        case geocoder
    }

    public var kind: Kind
    public var name: String
    public var detail: String?
    public var coordinate: Coordinate
    public var placeID: Int?
    public var contactID: Int?
    public var addressID: Int?
    public var precision: GeocodingPrecision?
    public var source: String?
    /// What a geocoder's answer is ("cafe"), when it says.
    public var placeKind: String?

    public init(
        kind: Kind, name: String, detail: String? = nil, coordinate: Coordinate, placeID: Int? = nil,
        contactID: Int? = nil, addressID: Int? = nil, precision: GeocodingPrecision? = nil, source: String? = nil,
        placeKind: String? = nil
    ) {
        self.placeKind = placeKind
        self.kind = kind
        self.name = name
        self.detail = detail
        self.coordinate = coordinate
        self.placeID = placeID
        self.contactID = contactID
        self.addressID = addressID
        self.precision = precision
        self.source = source
    }

    /// Where maps apps are sent: a contact's address the geocoder placed only roughly goes as its text (each
    /// app finds the street itself); everything else as its coordinates (a geocoder's answer is what was
    /// asked for, even a city).
    public var mapDestination: MapDestination {
        if !isPrecise, let detail { return .address(detail) }
        return .coordinate(coordinate, label: name)
    }

    /// False for a contact's address the geocoder placed coarser than its street.
    public var isPrecise: Bool {
        guard kind == .address, let precision else { return true }
        return precision >= .street
    }
}

/// The combined search's rules, apart from where the hits come from.
public enum PlaceSearch {
    public static let defaultLimit = 20
    public static let maximumLimit = 50

    /// Nearest first when `near` is given (each hit with its distance in metres); otherwise the person's
    /// own places, then their contacts' addresses, then the geocoder's answers, each in its source's order.
    public static func ranked(
        _ hits: [PlaceSearchHit], near: Coordinate?, limit: Int
    ) -> [(hit: PlaceSearchHit, meters: Double?)] {
        guard let near else { return Array(hits.prefix(limit).map { ($0, nil) }) }
        let measured = hits.enumerated().map { index, hit in (index, hit, Geo.distance(near, hit.coordinate)) }
        return measured.sorted { ($0.2, $0.0) < ($1.2, $1.0) }.prefix(limit).map { ($0.1, $0.2) }
    }

    /// Whether the folded `text` is found in any of `fields`, ignoring case and accents.
    public static func matches(_ text: String, in fields: [String?]) -> Bool {
        TextFolding.searchKey(fields).contains(text)
    }
}
