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

    public var values: AddressValues {
        AddressValues(street: street, city: city, province: province, postalCode: postalCode)
    }

    /// The address as its country writes it, the country's name last.
    public func lines(recipient: String? = nil, countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled) -> [String] {
        var values = self.values
        values.recipient = recipient
        let format = countryCode.flatMap(formats.format(for:)) ?? formats.fallback
        let lines = format.lines(for: values, countryName: countryCode.map { formats.countryName(for: $0, countries: countries) } ?? "")
        return lines.filter { !$0.isEmpty }
    }

    /// One line, for geocoding and sharing.
    public func singleLine(countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled) -> String {
        lines(countries: countries, formats: formats).joined(separator: ", ")
    }
}

/// A point on Earth in degrees (WGS 84).
public struct Coordinate: Hashable, Sendable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An address as typed, checked against the country's rules.
public struct PostalAddressDraft: Sendable {
    public var label: String?
    public var street: String?
    public var city: String?
    public var province: String?
    public var postalCode: String?
    /// Alpha-2 or alpha-3 code, or an English name, in any case.
    public var country: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(
        label: String? = nil, street: String? = nil, city: String? = nil, province: String? = nil,
        postalCode: String? = nil, country: String? = nil, latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.label = label
        self.street = street
        self.city = city
        self.province = province
        self.postalCode = postalCode
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Every problem at once, each naming its field. A province missing from the country's list is
    /// allowed: lists are incomplete and people write provinces many ways.
    public func validated(
        countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled
    ) throws(ValidationFailure) -> PostalAddress {
        var check = FieldChecker()
        let label = check.text(label, field: "name", label: "Label")
        let street = check.text(street, field: "street", label: "Street", limit: 255)
        let city = check.text(city, field: "city", label: "City")
        let province = check.text(province, field: "province", label: "Province")
        let postalCode = check.text(postalCode, field: "postal_code", label: "Postal code")
        let countryText = check.text(country, field: "country", label: "Country")
        var countryCode: String?
        if let countryText {
            if let country = countries.country(matching: countryText) {
                countryCode = country.iso
            } else {
                check.fail("country", "Country “\(countryText)” is not a known ISO country code or name.")
            }
        }
        if street == nil, city == nil, countryText == nil {
            check.fail("street", "Give at least a street, a city or a country.")
        }
        if let postalCode, let countryCode, let format = formats.format(for: countryCode),
           let problem = PostalCodeRule(format: format, countryName: countries.country(matching: countryCode)?.name ?? countryCode)
            .problem(with: postalCode) {
            check.fail("postal_code", problem)
        }
        var coordinate: Coordinate?
        switch (latitude, longitude) {
        case (nil, nil):
            break
        case (let latitude?, let longitude?):
            if !(-90...90).contains(latitude) { check.fail("latitude", "Latitude must be between -90 and 90.") }
            if !(-180...180).contains(longitude) { check.fail("longitude", "Longitude must be between -180 and 180.") }
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        case (nil, _):
            check.fail("latitude", "Give the latitude with the longitude, or neither.")
        case (_, nil):
            check.fail("longitude", "Give the longitude with the latitude, or neither.")
        }
        return try check.finish(PostalAddress(
            label: label, street: street, city: city, province: province, postalCode: postalCode,
            countryCode: countryCode, coordinate: coordinate))
    }
}

/// A country's postal-code pattern, anchored and case-insensitive, with a message that shows an example.
public struct PostalCodeRule: Sendable {
    let format: AddressFormat
    let countryName: String

    public init(format: AddressFormat, countryName: String) {
        self.format = format
        self.countryName = countryName
    }

    /// nil when `postalCode` fits the pattern (or the country has none).
    public func problem(with postalCode: String) -> String? {
        guard let pattern = format.postalCodePattern else { return nil }
        guard !Self.matches(postalCode, pattern: pattern) else { return nil }
        let label = format.postalCodeLabel
        let plural = label + "s"  // every label ends in "code": ZIP codes, Postcodes, Eircodes
        guard let example = format.postalCodeExamples.first else {
            return "That \(label.lowercasedFirst) is not valid in \(countryName)."
        }
        return "\(plural) in \(Self.withArticle(countryName)) look like \(example)."
    }

    static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = PatternCache.shared.expression(for: pattern) else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    /// "the United Kingdom", "the Netherlands", but "France".
    static func withArticle(_ name: String) -> String {
        let lower = name.lowercased()
        let takesArticle = ["united ", "republic", "islands", "netherlands", "philippines", "bahamas", "gambia",
                            "maldives", "comoros", "seychelles", "holy see", "isle of man", "emirates", "kingdom"]
            .contains { lower.hasPrefix($0) || lower.hasSuffix($0) || lower.contains(" \($0)") }
        return takesArticle ? "the " + name : name
    }
}

/// Compiled postal-code patterns, shared: compiling an ICU regular expression costs more than matching.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private var expressions: [String: NSRegularExpression] = [:]
    private let lock = NSLock()

    func expression(for pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[pattern] { return cached }
        let compiled = try? NSRegularExpression(pattern: "^(?:\(pattern))$", options: [.caseInsensitive])
        expressions[pattern] = compiled
        return compiled
    }
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
