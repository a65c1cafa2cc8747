import Foundation
import LocifyCore

/// `{id, object: "country", name, iso}`, Monica's country; `id` is the alpha-2 code.
public struct CountryResource: Codable, Sendable, Equatable {
    public var id: String
    public var object = "country"
    public var name: String
    public var iso: String

    public init(_ country: Country) {
        id = country.iso
        name = country.name
        iso = country.iso
    }
}

/// `GET /api/countries`: an object keyed by lower-case alpha-2, in name order (not a list, as Monica has it).
public struct CountryListResource: Codable, Sendable {
    public var countries: [CountryResource]

    public init(_ catalog: CountryCatalog) {
        countries = catalog.all.sorted { $0.name < $1.name }.map(CountryResource.init)
    }

    /// For clients and tests; JSON objects keep no order, so the countries are put in name order again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        countries = try container.allKeys.map { try container.decode(CountryResource.self, forKey: $0) }
            .sorted { $0.name < $1.name }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LenientKey.self)
        for country in countries {
            try container.encode(country, forKey: LenientKey(stringValue: country.iso.lowercased()))
        }
    }
}

/// Links that open the address in each maps app (Locify's own key). OsmAnd takes coordinates only.
public struct MapLinksResource: Codable, Sendable, Equatable {
    public var geo: String
    public var apple: String
    public var google: String
    public var osm: String
    public var organicMaps: String
    @Nullable public var osmand: String?

    enum CodingKeys: String, CodingKey {
        case geo, apple, google, osm
        case organicMaps = "organic_maps"
        case osmand
    }

    public init(destination: MapDestination) {
        let shown = MapLinks.Shown(destination)
        func link(_ app: MapsApp) -> String { shown.link(in: app) ?? "" }
        geo = link(.geoLink)
        apple = link(.appleMaps)
        google = link(.googleMaps)
        osm = link(.openStreetMap)
        organicMaps = link(.organicMaps)
        osmand = shown.osmAndLink()
    }
}

/// `{status: none | pending | done | not_found, precision, source}` (Locify's own key).
public struct GeocodeResource: Codable, Sendable, Equatable {
    public var status: String
    @Nullable public var precision: String?
    @Nullable public var source: String?

    public init(status: String, precision: String? = nil, source: String? = nil) {
        self.status = status
        self.precision = precision
        self.source = source
    }

    /// `precision` is the position's (`CoordinatePrecision`): `manual` for one a person gave, null without one.
    public init(_ stored: ContactAddress) {
        status = stored.geocode.status.rawValue
        precision = stored.coordinatePrecision?.rawValue
        source = stored.geocode.source
    }
}

/// What the full and short address shapes share, worked out once from an address.
struct AddressSummary {
    let id: Int
    let uuid: String
    let name: String?
    let street: String?
    let city: String?
    let province: String?
    let postalCode: String?
    let latitude: Double?
    let longitude: Double?
    let country: CountryResource?
    let url: String
    let account: AccountReference
    let createdAt: String
    let updatedAt: String
    let contactID: Int
    let formatted: [String]
    let mapLinks: MapLinksResource
    let geocode: GeocodeResource

    init(_ stored: ContactAddress, url: String, countries: CountryCatalog) {
        let address = stored.address
        id = stored.id
        uuid = stored.uuid.lowercasedText
        name = address.label
        street = address.street
        city = address.city
        province = address.province
        postalCode = address.postalCode
        latitude = address.coordinate?.latitude
        longitude = address.coordinate?.longitude
        country = address.countryCode.flatMap(countries.country(matching:)).map(CountryResource.init)
        self.url = url
        account = AccountReference(id: stored.ownerID)
        createdAt = Timestamp.string(stored.createdAt)
        updatedAt = Timestamp.string(stored.updatedAt)
        contactID = stored.contactID
        let lines = address.lines(countries: countries)
        formatted = lines
        mapLinks = MapLinksResource(destination: stored.mapDestination(lines: lines))
        geocode = GeocodeResource(stored)
    }
}

/// Monica's address, with Locify's `contact_id`, `formatted`, `map_links` and `geocode` after its keys.
public struct AddressResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "address"
    @Nullable public var name: String?
    @Nullable public var street: String?
    @Nullable public var city: String?
    @Nullable public var province: String?
    @Nullable public var postalCode: String?
    @Nullable public var latitude: Double?
    @Nullable public var longitude: Double?
    @Nullable public var country: CountryResource?
    public var url: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int
    public var formatted: [String]
    public var mapLinks: MapLinksResource
    public var geocode: GeocodeResource

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, street, city, province
        case postalCode = "postal_code"
        case latitude, longitude, country, url, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
        case formatted
        case mapLinks = "map_links"
        case geocode
    }

    public init(
        _ address: ContactAddress, url: String, contact: ContactShortResource, countries: CountryCatalog = .bundled
    ) {
        let summary = AddressSummary(address, url: url, countries: countries)
        id = summary.id
        uuid = summary.uuid
        name = summary.name
        street = summary.street
        city = summary.city
        province = summary.province
        postalCode = summary.postalCode
        latitude = summary.latitude
        longitude = summary.longitude
        country = summary.country
        self.url = summary.url
        account = summary.account
        self.contact = contact
        createdAt = summary.createdAt
        updatedAt = summary.updatedAt
        contactID = summary.contactID
        formatted = summary.formatted
        mapLinks = summary.mapLinks
        geocode = summary.geocode
    }
}

/// The address inside a full contact: Monica's short address, without the contact it sits in.
public struct AddressShortResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "address"
    @Nullable public var name: String?
    @Nullable public var street: String?
    @Nullable public var city: String?
    @Nullable public var province: String?
    @Nullable public var postalCode: String?
    @Nullable public var latitude: Double?
    @Nullable public var longitude: Double?
    @Nullable public var country: CountryResource?
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int
    public var formatted: [String]
    public var mapLinks: MapLinksResource
    public var geocode: GeocodeResource

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, street, city, province
        case postalCode = "postal_code"
        case latitude, longitude, country, url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
        case formatted
        case mapLinks = "map_links"
        case geocode
    }

    public init(_ address: ContactAddress, url: String, countries: CountryCatalog = .bundled) {
        let summary = AddressSummary(address, url: url, countries: countries)
        id = summary.id
        uuid = summary.uuid
        name = summary.name
        street = summary.street
        city = summary.city
        province = summary.province
        postalCode = summary.postalCode
        latitude = summary.latitude
        longitude = summary.longitude
        country = summary.country
        self.url = summary.url
        account = summary.account
        createdAt = summary.createdAt
        updatedAt = summary.updatedAt
        contactID = summary.contactID
        formatted = summary.formatted
        mapLinks = summary.mapLinks
        geocode = summary.geocode
    }
}
