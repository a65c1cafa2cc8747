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

extension VCard {
    /// The card as a contact to create: N's given and family names (else the formatted name as the first
    /// name), the first e-mail, the birthday, the note.
    public var contactDraft: ContactDraft {
        let first = givenName ?? (familyName == nil ? formattedName : nil)
        return ContactDraft(
            firstName: first ?? formattedName, lastName: familyName, nickname: nickname, description: note,
            email: emails.first, isBirthdateKnown: birthday != nil, birthdateDay: birthday?.day,
            birthdateMonth: birthday?.month, birthdateYear: birthday?.year)
    }

    /// Each address as a draft: its first TYPE as the label ("home" becomes "Home"), the region as the
    /// province, the country as written (a name or a code).
    public var addressDrafts: [PostalAddressDraft] {
        addresses.map { address in
            PostalAddressDraft(
                label: address.types.first { !["pref", "postal", "parcel", "dom", "intl"].contains($0) }.map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                },
                street: address.street, city: address.city, province: address.region, postalCode: address.postalCode,
                country: address.country, latitude: address.coordinate?.latitude,
                longitude: address.coordinate?.longitude)
        }
    }
}
