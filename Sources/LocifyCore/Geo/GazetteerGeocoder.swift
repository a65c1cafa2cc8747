import Foundation

/// City-level geocoding over the bundled gazetteer: offline, fast, and never sends an address anywhere.
public struct GazetteerGeocoder: Geocoder {
    let gazetteer: @Sendable () -> Gazetteer
    let countries: CountryCatalog
    let formats: AddressFormats
    /// Per country, each subdivision's folded key, name, latin name and ISO code → its codes; built
    /// once so a query does not fold every subdivision name again.
    let subdivisionCodes: [String: [String: Set<String>]]

    public init(
        gazetteer: @escaping @Sendable () -> Gazetteer = { Gazetteer.bundled },
        countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled
    ) {
        self.gazetteer = gazetteer
        self.countries = countries
        self.formats = formats
        var table: [String: [String: Set<String>]] = [:]
        for (region, format) in formats.byRegion where !format.subdivisions.isEmpty {
            var names: [String: Set<String>] = [:]
            for subdivision in format.subdivisions {
                let codes = Set([subdivision.key, subdivision.iso].compactMap { $0 })
                for name in [subdivision.key, subdivision.name, subdivision.latinName, subdivision.iso].compactMap({
                    $0
                }) {
                    names[Gazetteer.key(name), default: []].formUnion(codes)
                }
            }
            table[region] = names
        }
        subdivisionCodes = table
    }

    public static let source = "gazetteer"

    public func search(_ query: GeocodingQuery) async throws -> [GeocodingResult] {
        results(for: query)
    }

    public func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult? {
        gazetteer().nearest(to: coordinate).map(result(for:))
    }

    /// The towns and villages within 30 km, nearest first.
    public func nearby(_ coordinate: Coordinate, limit: Int) async throws -> [GeocodingResult] {
        gazetteer().places(near: coordinate, limit: limit).map { result(for: $0.place) }
    }

    /// The synchronous search behind `search(_:)`. The whole text is tried first, then each
    /// comma-separated part ("10 Main St, Springfield, IL" → "Springfield"); with a country and no
    /// matching place, the country itself (its capital's position) is the answer.
    public func results(for query: GeocodingQuery) -> [GeocodingResult] {
        let countryCode = query.country.flatMap { countries.country(matching: $0)?.iso }
        let commaParts = query.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let parts = commaParts.count > 1 ? [query.text] + commaParts : [query.text]
        // In "Springfield, IL" the last part may name the province; it breaks ties when the query gave none.
        let province = query.province ?? (commaParts.count > 1 ? commaParts.last : nil)
        for part in parts where !part.isEmpty {
            var matches = gazetteer().places(named: part)
            if let countryCode { matches = matches.filter { $0.countryCode == countryCode } }
            guard !matches.isEmpty else { continue }
            let ranked = rank(matches, province: province, near: query.near)
            return ranked.prefix(max(1, query.limit)).map(result(for:))
        }
        if let countryCode, let country = countries.country(matching: countryCode) {
            return [countryResult(country)]
        }
        if let country = countries.country(matching: query.text) {
            return [countryResult(country)]
        }
        return []
    }

    private func rank(_ places: [GazetteerPlace], province: String?, near: Coordinate?) -> [GazetteerPlace] {
        // Which admin-1 codes the province names, worked out once per country rather than per comparison.
        var matchingCodes: [String: Set<String>] = [:]
        if let province {
            for countryCode in Set(places.map(\.countryCode)) {
                matchingCodes[countryCode] = admin1Codes(matching: province, countryCode: countryCode)
            }
        }
        func inProvince(_ place: GazetteerPlace) -> Bool {
            matchingCodes[place.countryCode]?.contains(place.admin1) ?? false
        }
        return places.sorted { a, b in
            let aIn = inProvince(a)
            let bIn = inProvince(b)
            if aIn != bIn { return aIn }
            if let near {
                let da = Geo.distance(near, a.coordinate)
                let db = Geo.distance(near, b.coordinate)
                if abs(da - db) > 1000 { return da < db }
            }
            return a.population > b.population
        }
    }

    /// The admin-1 codes a province names: itself as a code ("IL"), or the codes of the country's
    /// subdivisions whose key, name or ISO code it is ("Illinois" → "IL").
    func admin1Codes(matching province: String, countryCode: String) -> Set<String> {
        let wanted = Gazetteer.key(province)
        guard !wanted.isEmpty else { return [] }
        let asCode: Set<String> = [province.uppercased().trimmingCharacters(in: .whitespaces)]
        return asCode.union(subdivisionCodes[countryCode]?[wanted] ?? [])
    }

    private func result(for place: GazetteerPlace) -> GeocodingResult {
        let countryName = formats.countryName(for: place.countryCode, countries: countries)
        let subdivision = formats.format(for: place.countryCode)?.subdivisions.first {
            $0.key == place.admin1 || $0.iso == place.admin1
        }
        let parts = [place.name, subdivision?.displayName, countryName].compactMap { $0 }
        return GeocodingResult(
            coordinate: place.coordinate, displayName: parts.joined(separator: ", "), countryCode: place.countryCode,
            precision: .city, source: Self.source)
    }

    private func countryResult(_ country: Country) -> GeocodingResult {
        let capital = country.capital.flatMap { name in
            gazetteer().places(named: name).first { $0.countryCode == country.iso }
        }
        // Without a capital in the gazetteer, the biggest place stands for the country.
        let anchor = capital ?? gazetteer().places.first { $0.countryCode == country.iso }
        return GeocodingResult(
            coordinate: anchor?.coordinate ?? Coordinate(latitude: 0, longitude: 0), displayName: country.name,
            countryCode: country.iso, precision: .country, source: Self.source)
    }
}
