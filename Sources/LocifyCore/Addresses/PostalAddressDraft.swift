import Foundation

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

    /// People's names for the API's keys, for problems with values that could not be read.
    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "name": "Label", "street": "Street", "city": "City", "province": "Province",
        "postal_code": "Postal code", "country": "Country", "country_id": "Country", "latitude": "Latitude",
        "longitude": "Longitude",
    ]

    /// Every problem at once, each naming its field. A province missing from the country's list is
    /// allowed: lists are incomplete and people write provinces many ways. `storedFields` names the
    /// wire fields whose values were kept from what is stored (an update sends only what changes): a rule
    /// across fields that fails because of one of them is a conflict with the stored address, not bad
    /// input.
    public func validated(
        countries: CountryCatalog = .bundled, formats: AddressFormats = .bundled, storedFields: Set<String> = []
    ) throws(ValidationFailure) -> PostalAddress {
        func reason(involving fields: Set<String>) -> FieldError.Reason {
            fields.isDisjoint(with: storedFields) ? .invalid : .conflict
        }
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
            check.fail(
                "street", "Give at least a street, a city or a country.",
                reason: reason(involving: ["street", "city", "country"]))
        }
        if let postalCode, let countryCode, let format = formats.format(for: countryCode),
            let problem = PostalCodeRule(
                format: format, countryName: countries.country(matching: countryCode)?.name ?? countryCode
            )
            .problem(with: postalCode)
        {
            check.fail("postal_code", problem, reason: reason(involving: ["postal_code", "country"]))
        }
        var coordinate: Coordinate?
        switch (latitude, longitude) {
        case (nil, nil):
            break
        case (let latitude?, let longitude?):
            if !Coordinate.isLatitude(latitude) { check.fail("latitude", Coordinate.latitudeProblem) }
            if !Coordinate.isLongitude(longitude) { check.fail("longitude", Coordinate.longitudeProblem) }
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        case (nil, _):
            check.fail("latitude", "Give the latitude with the longitude, or neither.")
        case (_, nil):
            check.fail("longitude", "Give the longitude with the latitude, or neither.")
        }
        return try check.finish(
            PostalAddress(
                label: label, street: street, city: city, province: province, postalCode: postalCode,
                countryCode: countryCode, coordinate: coordinate))
    }
}
