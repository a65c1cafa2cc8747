import Foundation

/// Nominatim's `format=jsonv2` answers, read into `GeocodingResult`s: `lat` and `lon` arrive as strings,
/// and how exact a result is comes from its `addresstype` (or `type`).
public enum NominatimResults {
    private struct Place: Decodable {
        let lat: String
        let lon: String
        let displayName: String?
        let addresstype: String?
        let type: String?
        let address: [String: String]?

        enum CodingKeys: String, CodingKey {
            case lat, lon
            case displayName = "display_name"
            case addresstype, type, address
        }
    }

    public static let source = "nominatim"

    /// The results in the answer; an answer that is not Nominatim's JSON throws.
    public static func parse(_ data: Data) throws -> [GeocodingResult] {
        try JSONDecoder().decode([Place].self, from: data).compactMap { place in
            guard let coordinate = Coordinate(validLatitude: Double(place.lat), longitude: Double(place.lon)) else {
                return nil
            }
            return GeocodingResult(
                coordinate: coordinate,
                displayName: place.displayName ?? "\(place.lat), \(place.lon)",
                countryCode: place.address?["country_code"]?.uppercased(),
                precision: precision(of: place.addresstype ?? place.type ?? ""), source: source,
                placeKind: place.type.flatMap { $0.isEmpty || $0 == "yes" ? nil : $0 })
        }
    }

    static func precision(of kind: String) -> GeocodingPrecision {
        switch kind {
        case "house", "building", "house_number", "amenity", "shop", "office", "place": .building
        case "road", "street", "residential", "pedestrian", "postcode", "neighbourhood", "quarter", "suburb": .street
        case "state", "region", "province", "state_district", "county": .region
        case "country": .country
        default: .city
        }
    }
}
