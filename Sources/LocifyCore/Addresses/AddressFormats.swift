import Foundation

/// Every region's address format from the bundled address-formats.json (Google's libaddressinput
/// metadata), each completed with the data's defaults.
public struct AddressFormats: Sendable {
    public let byRegion: [String: AddressFormat]
    /// The data's defaults, for an address without a country.
    public let fallback: AddressFormat

    public static let bundled: AddressFormats = {
        do {
            return try AddressFormats(data: BundledResource.data(named: "address-formats"))
        } catch {
            preconditionFailure("the bundled address-formats.json cannot be read: \(error)")
        }
    }()

    struct Entry: Decodable {
        var fmt: String?
        var lfmt: String?
        var require: String?
        var upper: String?
        var zip: String?
        var zipex: String?
        var zipNameType: String?
        var stateNameType: String?
        var localityNameType: String?
        var postprefix: String?
        var name: String?
        var subdivisions: [Subdivision]?

        enum CodingKeys: String, CodingKey {
            case fmt, lfmt, require, upper, zip, zipex, postprefix, name, subdivisions
            case zipNameType = "zip_name_type"
            case stateNameType = "state_name_type"
            case localityNameType = "locality_name_type"
        }
    }

    struct File: Decodable {
        var defaults: Entry
        var countries: [String: Entry]
    }

    public init(data: Data) throws {
        let file = try JSONDecoder().decode(File.self, from: data)
        let defaults = file.defaults
        func fields(_ letters: String?) -> Set<AddressField> {
            Set((letters ?? "").compactMap(AddressField.init(rawValue:)))
        }
        var formats: [String: AddressFormat] = [:]
        for (code, entry) in file.countries {
            formats[code] = AddressFormat(
                regionCode: code,
                pattern: entry.fmt ?? defaults.fmt ?? "%N%n%O%n%A%n%C",
                latinPattern: entry.lfmt,
                requiredFields: fields(entry.require ?? defaults.require),
                uppercaseFields: fields(entry.upper ?? defaults.upper),
                postalCodePattern: entry.zip,
                postalCodeExamples: (entry.zipex ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                },
                postalCodePrefix: entry.postprefix,
                subdivisions: entry.subdivisions ?? [],
                zipNameType: entry.zipNameType ?? defaults.zipNameType ?? "postal",
                stateNameType: entry.stateNameType ?? defaults.stateNameType ?? "province",
                localityNameType: entry.localityNameType ?? defaults.localityNameType ?? "city",
                dataName: entry.name ?? code)
        }
        byRegion = formats
        fallback = AddressFormat(
            regionCode: "ZZ", pattern: defaults.fmt ?? "%N%n%O%n%A%n%C", latinPattern: nil,
            requiredFields: fields(defaults.require), uppercaseFields: fields(defaults.upper), postalCodePattern: nil,
            postalCodeExamples: [], postalCodePrefix: nil, subdivisions: [],
            zipNameType: defaults.zipNameType ?? "postal",
            stateNameType: defaults.stateNameType ?? "province", localityNameType: defaults.localityNameType ?? "city",
            dataName: "")
    }

    /// The English name for a region: ISO's where it is a country, else the data's own name in title
    /// case (Ascension Island, Tristan da Cunha and Kosovo have formats but no ISO entry).
    public func countryName(for regionCode: String, countries: CountryCatalog = .bundled) -> String {
        if let country = countries.country(matching: regionCode) { return country.name }
        guard let format = format(for: regionCode) else { return regionCode }
        return format.dataName.lowercased().split(separator: " ").map { word in
            ["da", "de", "of", "and"].contains(word) ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// The format for an ISO alpha-2 code (any case); nil for codes the data does not know.
    public func format(for regionCode: String) -> AddressFormat? {
        byRegion[regionCode.uppercased()]
    }
}
