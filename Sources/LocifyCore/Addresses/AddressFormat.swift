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

    /// The fields this country uses, in the order they are written.
    public var fields: [AddressField] {
        lines(of: pattern).flatMap { $0.compactMap(\.field) }
    }

    /// The fields grouped by the line they are written on.
    public var fieldLines: [[AddressField]] {
        lines(of: pattern).map { $0.compactMap(\.field) }.filter { !$0.isEmpty }
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
    /// writes them so, lines that end up empty dropped, the country's name last.
    public func lines(for address: AddressValues, countryName: String, latin: Bool = false) -> [String] {
        let chosen = latin ? (latinPattern ?? pattern) : pattern
        var output: [String] = []
        for line in lines(of: chosen) {
            // A street of several lines expands into several address lines.
            if line.count == 1, line.first?.field == .street {
                output += (address.value(for: .street) ?? "").split(whereSeparator: \.isNewline).map {
                    apply(.street, to: String($0))
                }
                continue
            }
            var text = ""
            for token in line {
                switch token {
                case .literal(let literal): text += literal
                case .field(let field):
                    let value = (address.value(for: field) ?? "").replacingOccurrences(of: "\n", with: ", ")
                    text += apply(field, to: value)
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

    /// Trims spaces and separators left at the ends by empty fields, and doubled separators inside
    /// ("Springfield, , 62704" → "Springfield, 62704").
    static func tidy(_ text: String) -> String {
        var result = text
        for (doubled, single) in [("  ", " "), (" ,", ","), (",,", ",")] {
            while result.contains(doubled) { result = result.replacingOccurrences(of: doubled, with: single) }
        }
        return result.trimmingCharacters(in: CharacterSet(charactersIn: " ,-/").union(.whitespaces))
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
    func lines(of pattern: String) -> [[Token]] {
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
