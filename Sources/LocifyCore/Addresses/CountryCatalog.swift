import Foundation

/// One of the 249 ISO 3166-1 countries.
public struct Country: Hashable, Sendable, Codable {
    /// ISO alpha-2, upper case ("CH").
    public let iso: String
    /// ISO alpha-3 ("CHE").
    public let iso3: String
    public let numeric: String
    /// English short name ("Switzerland").
    public let name: String
    public let officialName: String?
    public let capital: String?
    public let continent: String?

    enum CodingKeys: String, CodingKey {
        case iso, iso3, numeric, name
        case officialName = "official_name"
        case capital, continent
    }
}

/// The bundled country list: look-up by code or name, and a ranked search for pickers.
public struct CountryCatalog: Sendable {
    /// Ordered by English name.
    public let all: [Country]
    private let byKey: [String: Country]
    /// Upper-case alpha-2 and alpha-3 codes, for the common look-up that needs no folding.
    private let byCode: [String: Country]

    public init(countries: [Country]) {
        all = countries.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        var keys: [String: Country] = [:]
        for country in countries {
            for key in [country.iso, country.iso3, country.name, country.officialName].compactMap({ $0 }) {
                keys[Self.fold(key)] = keys[Self.fold(key)] ?? country
            }
        }
        byKey = keys
        byCode = Dictionary(
            countries.flatMap { [($0.iso, $0), ($0.iso3, $0)] }, uniquingKeysWith: { first, _ in first })
    }

    /// The catalogue from the package's countries.json (ISO 3166-1 via Debian iso-codes and GeoNames).
    public static let bundled: CountryCatalog = {
        do {
            return try CountryCatalog(countries: BundledResource.decode([Country].self, named: "countries"))
        } catch {
            preconditionFailure("the bundled countries.json cannot be read: \(error)")
        }
    }()

    /// The country whose alpha-2 or alpha-3 code, English name or official name is `text`, ignoring
    /// case, accents and surrounding space ("ch", "CHE", "switzerland", "Côte d'Ivoire", "cote d'ivoire").
    public func country(matching text: String) -> Country? {
        if text.utf8.count <= 3, let country = byCode[text.uppercased()] { return country }
        return byKey[Self.fold(text)]
    }

    /// Countries for a picker: names starting with `text` first, then names containing it, each
    /// alphabetical; an exact code match leads.
    public func search(_ text: String, limit: Int = 10) -> [Country] {
        let query = Self.fold(text)
        guard !query.isEmpty else { return Array(all.prefix(limit)) }
        var exact: [Country] = []
        var prefix: [Country] = []
        var contains: [Country] = []
        for country in all {
            let name = Self.fold(country.name)
            if query == Self.fold(country.iso) || query == Self.fold(country.iso3) {
                exact.append(country)
            } else if name.hasPrefix(query) {
                prefix.append(country)
            } else if name.contains(query) {
                contains.append(country)
            }
        }
        return Array((exact + prefix + contains).prefix(limit))
    }

    static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "’", with: "'")
    }
}
