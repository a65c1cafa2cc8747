import Foundation

/// The parts of a postal address, by the letters of Google's address metadata.
public enum AddressField: Character, CaseIterable, Sendable {
    case recipient = "N"
    case organisation = "O"
    case street = "A"
    case dependentLocality = "D"
    case city = "C"
    case province = "S"
    case postalCode = "Z"
    case sortingCode = "X"
}

/// A first-level area of a country (a US state, a Swiss canton), for a province picker.
public struct Subdivision: Hashable, Sendable, Decodable {
    /// The value written on an address ("CA", "Zürich").
    public let key: String
    public let name: String?
    public let latinName: String?
    public let iso: String?
    /// Postal codes of this area start with this pattern.
    public let postalCodePrefix: String?

    enum CodingKeys: String, CodingKey {
        case key, name
        case latinName = "latin_name"
        case iso
        case postalCodePrefix = "zip"
    }

    /// What a picker shows.
    public var displayName: String { name ?? latinName ?? key }
}

/// How one country writes addresses: its fields, lines, words and postal-code rule.
public struct AddressFormat: Sendable {
    public let regionCode: String
    /// Google's `fmt`, e.g. `%N%n%O%n%A%n%C, %S %Z`.
    public let pattern: String
    /// The latin-script variant (`lfmt`) where the local one is not latin (Japan, China, …).
    public let latinPattern: String?
    public let requiredFields: Set<AddressField>
    public let uppercaseFields: Set<AddressField>
    public let postalCodePattern: String?
    public let postalCodeExamples: [String]
    public let postalCodePrefix: String?
    public let subdivisions: [Subdivision]
    let zipNameType: String
    let stateNameType: String
    let localityNameType: String
    /// The name Google's data gives the region; used where ISO has no country (AC, TA, XK).
    let dataName: String
    /// `pattern` and `latinPattern` read once: every address a list or the sync feed answers is
    /// written through them.
    private let patternLines: [[Token]]
    private let latinPatternLines: [[Token]]?

    init(
        regionCode: String, pattern: String, latinPattern: String?, requiredFields: Set<AddressField>,
        uppercaseFields: Set<AddressField>, postalCodePattern: String?, postalCodeExamples: [String],
        postalCodePrefix: String?, subdivisions: [Subdivision], zipNameType: String, stateNameType: String,
        localityNameType: String, dataName: String
    ) {
        self.regionCode = regionCode
        self.pattern = pattern
        self.latinPattern = latinPattern
        self.requiredFields = requiredFields
        self.uppercaseFields = uppercaseFields
        self.postalCodePattern = postalCodePattern
        self.postalCodeExamples = postalCodeExamples
        self.postalCodePrefix = postalCodePrefix
        self.subdivisions = subdivisions
        self.zipNameType = zipNameType
        self.stateNameType = stateNameType
        self.localityNameType = localityNameType
        self.dataName = dataName
        patternLines = Self.lines(of: pattern)
        latinPatternLines = latinPattern.map(Self.lines(of:))
    }

    /// The fields this country uses, in the order they are written.
    public var fields: [AddressField] {
        patternLines.flatMap { $0.compactMap(\.field) }
    }

    /// The fields grouped by the line they are written on.
    public var fieldLines: [[AddressField]] {
        patternLines.map { $0.compactMap(\.field) }.filter { !$0.isEmpty }
    }

    // MARK: Words

    /// "ZIP code", "Postal code", "PIN code", "Eircode", or the United Kingdom's "Postcode".
    public var postalCodeLabel: String {
        if regionCode == "GB" { return "Postcode" }
        switch zipNameType {
        case "zip": return "ZIP code"
        case "pin": return "PIN code"
        case "eircode": return "Eircode"
        default: return "Postal code"
        }
    }

    /// "State", "Province", "County", "Prefecture", "Emirate", "Do/Si", …
    public var provinceLabel: String {
        switch stateNameType {
        case "do_si": return "Do/Si"
        default: return Self.capitalizedWords(stateNameType)
        }
    }

    /// "City", "Post town", "District" or "Suburb".
    public var cityLabel: String {
        Self.capitalizedWords(localityNameType)
    }

    public func label(for field: AddressField) -> String {
        switch field {
        case .recipient: "Name"
        case .organisation: "Organisation"
        case .street: "Street address"
        case .dependentLocality: "Neighbourhood"
        case .city: cityLabel
        case .province: provinceLabel
        case .postalCode: postalCodeLabel
        case .sortingCode: "Sorting code"
        }
    }

    private static func capitalizedWords(_ text: String) -> String {
        let words = text.split(separator: "_").map(String.init)
        guard let first = words.first else { return text }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }

    // MARK: Formatting

    /// The address as lines, following the country's pattern: fields in capitals where the country
    /// writes them so (unless `asWritten`: on a screen "10117 Berlin" reads better than the envelope's
    /// "10117 BERLIN"), lines that end up empty dropped, the country's name last.
    public func lines(
        for address: AddressValues, countryName: String, latin: Bool = false, asWritten: Bool = false
    ) -> [String] {
        let apply = { (field: AddressField, value: String) in asWritten ? value : self.apply(field, to: value) }
        var output: [String] = []
        for line in latin ? (latinPatternLines ?? patternLines) : patternLines {
            // A street of several lines expands into several address lines.
            if line.count == 1, line.first?.field == .street {
                output += (address.value(for: .street) ?? "").split(whereSeparator: \.isNewline).map {
                    apply(.street, String($0))
                }
                continue
            }
            var text = ""
            for token in line {
                switch token {
                case .literal(let literal): text += literal
                case .field(let field):
                    text += apply(field, Self.joiningLines(address.value(for: field) ?? ""))
                }
            }
            let cleaned = Self.tidy(text)
            if !cleaned.isEmpty { output.append(cleaned) }
        }
        output.append(countryName)
        return output
    }

    /// One line for geocoding and sharing: the lines joined with ", " (the recipient left out).
    public func singleLine(for address: AddressValues, countryName: String) -> String {
        var withoutRecipient = address
        withoutRecipient.recipient = nil
        return lines(for: withoutRecipient, countryName: countryName).joined(separator: ", ")
    }

    private func apply(_ field: AddressField, to value: String) -> String {
        uppercaseFields.contains(field) ? value.uppercased() : value
    }

    /// A value's lines joined with ", ", for a field written within a line.
    private static func joiningLines(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\n")) else { return value }
        var joined = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if scalar == "\n" { joined.append(contentsOf: ", ".unicodeScalars) } else { joined.append(scalar) }
        }
        return String(joined)
    }

    /// Trims spaces and separators left at the ends by empty fields, and doubled separators inside
    /// ("Springfield, , 62704" → "Springfield, 62704"): runs of spaces become one, a space before a comma
    /// goes, runs of commas become one. One pass over the text; Foundation's replacing and trimming (a
    /// character set made each time) were most of the time of writing an address.
    static func tidy(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == " ", scalars.last == " " { continue }
            if scalar == "," {
                if scalars.last == " " { scalars.removeLast() }
                if scalars.last == "," { continue }
            }
            scalars.append(scalar)
        }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// What `tidy` trims from the ends: separators, and spaces (a tab, and the Unicode space separators).
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", ",", "-", "/", "\t": true
        default: scalar.properties.generalCategory == .spaceSeparator
        }
    }

    enum Token: Equatable {
        case literal(String)
        case field(AddressField)

        var field: AddressField? {
            if case .field(let field) = self { return field }
            return nil
        }
    }

    /// Splits a pattern on `%n` into lines of literals and fields.
    static func lines(of pattern: String) -> [[Token]] {
        pattern.components(separatedBy: "%n").map { line in
            var tokens: [Token] = []
            var literal = ""
            var characters = line.makeIterator()
            while let character = characters.next() {
                if character == "%", let code = characters.next() {
                    if let field = AddressField(rawValue: code) {
                        if !literal.isEmpty { tokens.append(.literal(literal)) }
                        literal = ""
                        tokens.append(.field(field))
                    } else {
                        literal.append(code)
                    }
                } else {
                    literal.append(character)
                }
            }
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            return tokens
        }
    }
}

/// The values of an address by field, as the formatter reads them.
public struct AddressValues: Equatable, Sendable {
    public var recipient: String?
    public var organisation: String?
    public var street: String?
    public var dependentLocality: String?
    public var city: String?
    public var province: String?
    public var postalCode: String?
    public var sortingCode: String?

    public init(
        recipient: String? = nil, organisation: String? = nil, street: String? = nil, dependentLocality: String? = nil,
        city: String? = nil, province: String? = nil, postalCode: String? = nil, sortingCode: String? = nil
    ) {
        self.recipient = recipient
        self.organisation = organisation
        self.street = street
        self.dependentLocality = dependentLocality
        self.city = city
        self.province = province
        self.postalCode = postalCode
        self.sortingCode = sortingCode
    }

    public func value(for field: AddressField) -> String? {
        switch field {
        case .recipient: recipient
        case .organisation: organisation
        case .street: street
        case .dependentLocality: dependentLocality
        case .city: city
        case .province: province
        case .postalCode: postalCode
        case .sortingCode: sortingCode
        }
    }
}
