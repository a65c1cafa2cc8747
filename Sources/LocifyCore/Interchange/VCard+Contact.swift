extension VCard {
    /// A contact as a vCard 4.0 card: names, e-mail, birthday, and each address with its label and position.
    public init(_ aggregate: ContactAggregate, countries: CountryCatalog = .bundled) {
        let contact = aggregate.contact
        self.init(
            uid: "urn:uuid:\(contact.uuid.lowercasedText)", formattedName: contact.completeName,
            givenName: contact.fields.firstName, familyName: contact.fields.lastName,
            nickname: contact.fields.nickname, emails: contact.fields.email.map { [$0] } ?? [],
            birthday: contact.fields.birthdate,
            addresses: aggregate.addresses.map { stored in
                let address = stored.address
                return VCard.Address(
                    types: address.label.map { [$0.lowercased()] } ?? [], street: address.street, city: address.city,
                    region: address.province, postalCode: address.postalCode,
                    country: address.countryCode.flatMap { countries.country(matching: $0)?.name },
                    label: address.lines(countries: countries).joined(separator: "\n"), coordinate: address.coordinate)
            },
            photoURI: nil, note: contact.fields.description)
    }
}
