import XCTest

@testable import LocifyCore

final class AddressFormatTests: XCTestCase {
    let formats = AddressFormats.bundled
    let countries = CountryCatalog.bundled

    /// The raw data, read independently of the parser under test.
    func rawRegions() throws -> [String: [String: Any]] {
        let object =
            try JSONSerialization.jsonObject(with: BundledResource.data(named: "address-formats")) as? [String: Any]
        return try XCTUnwrap(object?["countries"] as? [String: [String: Any]])
    }

    func rawDefaults() throws -> [String: Any] {
        let object =
            try JSONSerialization.jsonObject(with: BundledResource.data(named: "address-formats")) as? [String: Any]
        return try XCTUnwrap(object?["defaults"] as? [String: Any])
    }

    static let sample: [Character: String] = [
        "N": "Jane Roe", "O": "Acme Ltd", "A": "12 Sample Street", "D": "Old Town", "C": "Sampleton",
        "S": "Sample Province", "Z": "12345", "X": "CEDEX 7",
    ]

    func testEveryRegionFormatsAFullSampleAsTheDataSays() throws {
        let regions = try rawRegions()
        let defaults = try rawDefaults()
        XCTAssertEqual(regions.count, 252)
        XCTAssertEqual(formats.byRegion.count, regions.count)
        let values = AddressValues(
            recipient: Self.sample["N"], organisation: Self.sample["O"], street: Self.sample["A"],
            dependentLocality: Self.sample["D"], city: Self.sample["C"], province: Self.sample["S"],
            postalCode: Self.sample["Z"], sortingCode: Self.sample["X"])
        for (code, raw) in regions {
            let pattern = raw["fmt"] as? String ?? defaults["fmt"] as! String
            let upper = Set(raw["upper"] as? String ?? defaults["upper"] as! String)
            // The rule of data/README.md, written out plainly.
            var expected: [String] = []
            for line in pattern.components(separatedBy: "%n") {
                var text = line
                for (letter, value) in Self.sample {
                    text = text.replacingOccurrences(
                        of: "%\(letter)", with: upper.contains(letter) ? value.uppercased() : value)
                }
                if !text.trimmingCharacters(in: CharacterSet(charactersIn: " ,-/")).isEmpty { expected.append(text) }
            }
            let name = formats.countryName(for: code)
            expected.append(name)
            let format = try XCTUnwrap(formats.format(for: code), code)
            XCTAssertEqual(format.lines(for: values, countryName: name), expected, code)
        }
    }

    func testKnownAddresses() {
        let us = PostalAddress(
            street: "1600 Amphitheatre Parkway", city: "Mountain View", province: "CA", postalCode: "94043",
            countryCode: "US")
        XCTAssertEqual(
            us.lines(recipient: "Ada"),
            ["Ada", "1600 Amphitheatre Parkway", "MOUNTAIN VIEW, CA 94043", "United States"])
        XCTAssertEqual(us.singleLine(), "1600 Amphitheatre Parkway, MOUNTAIN VIEW, CA 94043, United States")
        XCTAssertEqual(
            us.lines(asWritten: true), ["1600 Amphitheatre Parkway", "Mountain View, CA 94043", "United States"],
            "on screen, the case as typed")
        let partial = PostalAddress(city: "Springfield", postalCode: "62704", countryCode: "US")
        XCTAssertEqual(
            partial.lines(), ["SPRINGFIELD, 62704", "United States"], "an empty state leaves no stray comma")
        let swiss = PostalAddress(
            street: "Bahnhofstrasse 1\nc/o Muster", city: "Zürich", postalCode: "8001", countryCode: "CH")
        XCTAssertEqual(
            swiss.lines(), ["Bahnhofstrasse 1", "c/o Muster", "CH-8001 Zürich", "Switzerland"], "the data writes CH-%Z")
        let japan = formats.format(for: "jp")!
        let tokyo = AddressValues(street: "1-1 Chiyoda", city: "Chiyoda-ku", province: "Tokyo", postalCode: "100-0001")
        XCTAssertEqual(japan.lines(for: tokyo, countryName: "Japan").first, "〒100-0001")
        XCTAssertEqual(
            japan.lines(for: tokyo, countryName: "Japan", latin: true), ["1-1 Chiyoda, TOKYO", "100-0001", "Japan"],
            "Japan writes the prefecture in capitals")
        XCTAssertEqual(
            japan.lines(for: tokyo, countryName: "Japan", latin: true, asWritten: true).first, "1-1 Chiyoda, Tokyo")
        XCTAssertEqual(PostalAddress(city: "Paris").lines(), ["PARIS"], "no country: the defaults, no country line")
        XCTAssertEqual(formats.countryName(for: "TA"), "Tristan da Cunha")
    }

    func testFieldsLinesAndWords() throws {
        let us = try XCTUnwrap(formats.format(for: "US"))
        XCTAssertEqual(us.fields, [.recipient, .organisation, .street, .city, .province, .postalCode])
        XCTAssertEqual(us.fieldLines, [[.recipient], [.organisation], [.street], [.city, .province, .postalCode]])
        XCTAssertEqual(us.requiredFields, [.street, .city, .province, .postalCode])
        XCTAssertEqual(us.postalCodeLabel, "ZIP code")
        XCTAssertEqual(us.provinceLabel, "State")
        XCTAssertEqual(us.subdivisions.first?.key, "AL")
        XCTAssertEqual(us.subdivisions.count, 62)
        XCTAssertEqual(formats.format(for: "GB")?.postalCodeLabel, "Postcode")
        XCTAssertEqual(formats.format(for: "GB")?.cityLabel, "Post town")
        XCTAssertEqual(formats.format(for: "IN")?.postalCodeLabel, "PIN code")
        XCTAssertEqual(formats.format(for: "IE")?.postalCodeLabel, "Eircode")
        XCTAssertEqual(formats.format(for: "IE")?.provinceLabel, "County")
        XCTAssertEqual(formats.format(for: "DE")?.postalCodeLabel, "Postal code")
        XCTAssertEqual(formats.format(for: "JP")?.provinceLabel, "Prefecture")
        XCTAssertEqual(formats.format(for: "KR")?.provinceLabel, "Do/Si")
        XCTAssertEqual(formats.format(for: "AE")?.provinceLabel, "Emirate")
        XCTAssertEqual(formats.format(for: "FR")?.label(for: .city), "City")
        XCTAssertNil(formats.format(for: "QQ"))
    }

    func testEveryPostalCodeExampleIsValidAndNonsenseIsNot() throws {
        var checked = 0
        for (code, format) in formats.byRegion {
            guard format.postalCodePattern != nil else { continue }
            let rule = PostalCodeRule(format: format, countryName: formats.countryName(for: code))
            XCTAssertFalse(format.postalCodeExamples.isEmpty, code)
            for example in format.postalCodeExamples {
                XCTAssertNil(rule.problem(with: example), "\(code) \(example)")
                XCTAssertNil(rule.problem(with: example.lowercased()), "\(code) \(example) in lower case")
            }
            XCTAssertNotNil(rule.problem(with: "@@ not a code @@"), code)
            XCTAssertNotNil(
                rule.problem(with: (format.postalCodeExamples.first ?? "") + "9Q9"), "\(code): trailing junk")
            checked += 1
        }
        XCTAssertEqual(checked, 181)
    }

    /// The API's description writes each format in ASCII (Tests/api/openapi_address_rules.py), so ICU's
    /// wider reading — any script's digits for `\d`, the long s for "s" — must not take a code.
    func testPostalCodesOutsideASCIINeverFit() throws {
        let unitedStates = try XCTUnwrap(formats.format(for: "US"))
        let rule = PostalCodeRule(format: unitedStates, countryName: "United States")
        XCTAssertNil(rule.problem(with: "95014"))
        XCTAssertNotNil(rule.problem(with: "٩٥٠١٤"), "Arabic-Indic digits")
        XCTAssertNotNil(rule.problem(with: "９５０１４"), "full-width digits")
        let jersey = try XCTUnwrap(formats.format(for: "JE"))
        let jerseyRule = PostalCodeRule(format: jersey, countryName: "Jersey")
        XCTAssertNil(jerseyRule.problem(with: "je2 3zs"))
        XCTAssertNotNil(jerseyRule.problem(with: "JE2 3Z\u{17F}"), "long s for s")
    }

    func testAddressValidationReportsEveryProblem() {
        XCTAssertThrowsError(try PostalAddressDraft(postalCode: "ABC", country: "gb", latitude: 91).validated()) {
            error in
            let failure = error as? ValidationFailure
            XCTAssertEqual(failure?.errors.map(\.field), ["postal_code", "longitude"])
            XCTAssertEqual(failure?.message(for: "postal_code"), "Postcodes in the United Kingdom look like EC1Y 8SY.")
        }
        XCTAssertThrowsError(try PostalAddressDraft(label: "Home").validated()) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.message(for: "street"), "Give at least a street, a city or a country.")
        }
        XCTAssertThrowsError(
            try PostalAddressDraft(city: "X", country: "Atlantis", latitude: 10, longitude: 190).validated()
        ) { error in
            XCTAssertEqual((error as? ValidationFailure)?.errors.map(\.field), ["country", "longitude"])
        }
        XCTAssertThrowsError(try PostalAddressDraft(street: String(repeating: "s", count: 256)).validated())
        XCTAssertThrowsError(try PostalAddressDraft(city: "Berlin", postalCode: "1234", country: "DE").validated()) {
            error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.message(for: "postal_code"), "Postal codes in Germany look like 26133.")
        }
        let valid = try? PostalAddressDraft(
            label: " Home ", street: "10 Downing Street", city: "London", province: "Not A Real County",
            postalCode: "sw1a 2aa", country: "GBR", latitude: 51.5034, longitude: -0.1276
        ).validated()
        XCTAssertEqual(valid?.countryCode, "GB")
        XCTAssertEqual(valid?.label, "Home")
        XCTAssertEqual(valid?.province, "Not A Real County", "free-text provinces are allowed")
        XCTAssertEqual(valid?.coordinate, Coordinate(latitude: 51.5034, longitude: -0.1276))
        XCTAssertNotNil(try? PostalAddressDraft(country: "Switzerland").validated())
    }

    func testCountries() throws {
        XCTAssertEqual(countries.all.count, 249)
        XCTAssertEqual(countries.all.first?.name, "Afghanistan")
        XCTAssertEqual(countries.country(matching: "ch")?.name, "Switzerland")
        XCTAssertEqual(countries.country(matching: "CHE")?.iso, "CH")
        XCTAssertEqual(countries.country(matching: " switzerland ")?.iso, "CH")
        let ivoryCoast = try XCTUnwrap(countries.country(matching: "CIV"))
        XCTAssertEqual(
            countries.country(
                matching: ivoryCoast.name.folding(options: .diacriticInsensitive, locale: nil).uppercased())?.iso, "CI")
        XCTAssertNil(countries.country(matching: "Atlantis"))
        XCTAssertEqual(countries.search("ger").first?.name, "Germany")
        let united = countries.search("united", limit: 20).map(\.name)
        XCTAssertTrue(united.starts(with: ["United Arab Emirates", "United Kingdom"]), "\(united)")
        let land = countries.search("land", limit: 50).map(\.name)
        XCTAssertTrue(land.contains("Switzerland"), "substring matches follow")
        XCTAssertEqual(countries.search("de").first?.iso, "DE", "an exact code leads")
    }
}
