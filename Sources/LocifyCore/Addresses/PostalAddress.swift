import Foundation

/// A validated address: trimmed text, a known country (alpha-2), coordinates in range.
public struct PostalAddress: Equatable, Sendable {
    public var label: String?
    public var street: String?
    public var city: String?
    public var province: String?
    public var postalCode: String?
    public var countryCode: String?
    public var coordinate: Coordinate?

    public init(
        label: String? = nil, street: String? = nil, city: String? = nil, province: String? = nil,
        postalCode: String? = nil, countryCode: String? = nil, coordinate: Coordinate? = nil
    ) {
        self.label = label
        self.street = street
        self.city = city
        self.province = province
        self.postalCode = postalCode
        self.countryCode = countryCode
        self.coordinate = coordinate
    }

    public var values: AddressValues {
        AddressValues(street: street, city: city, province: province, postalCode: postalCode)
    }

    /// The address as its country writes it, the country's name last; `asWritten` keeps the case the
    /// person typed where the postal form puts fields in capitals (for the screen; copies and labels keep the
    /// postal form).
    public func lines(
        recipient: String? = nil, countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled,
        asWritten: Bool = false
    ) -> [String] {
        var values = self.values
        values.recipient = recipient
        let format = countryCode.flatMap(formats.format(for:)) ?? formats.fallback
        let lines = format.lines(
            for: values, countryName: countryCode.map { formats.countryName(for: $0, countries: countries) } ?? "",
            asWritten: asWritten)
        return lines.filter { !$0.isEmpty }
    }

    /// Where map links point: the coordinates (pinned with the label, else the first line) when known at the
    /// street or better, else the address text (which each maps app finds at street level itself).
    public func mapDestination(lines: [String], precision: CoordinatePrecision? = .manual) -> MapDestination {
        guard let coordinate, precision?.isStreetLevel ?? true else { return .address(lines.joined(separator: ", ")) }
        return .coordinate(coordinate, label: label ?? lines.first)
    }

    /// What an approximate pin stands for, as people say it: "around Berlin", "around Bavaria", "around
    /// Germany"; nil for a pin at the street or better.
    public func approximateArea(precision: CoordinatePrecision?, countries: CountryCatalog = .bundled) -> String? {
        guard let precision, !precision.isStreetLevel else { return nil }
        let country = countryCode.flatMap { countries.country(matching: $0)?.name }
        let named: String?
        switch precision {
        case .city: named = city ?? province ?? country
        case .region: named = province ?? country
        default: named = country
        }
        return named.map { "around \($0)" }
    }

    /// One line, for geocoding and sharing.
    public func singleLine(countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled) -> String {
        lines(countries: countries, formats: formats).joined(separator: ", ")
    }
}
