/// Answers of an outside geocoder, by the text looked up: a place, or nothing found.
enum GeocodeCacheTable: StoredTable {
    static let name = "geocode_cache"

    enum Column: String, CaseIterable, Sendable {
        case id
        /// `GeocodeCache.key(for:source:)`.
        case lookupKey = "lookup_key"
        case found
        case latitude
        case longitude
        case precision
        case source
        case displayName = "display_name"
        case country
        case createdAt = "created_at"
    }
}
