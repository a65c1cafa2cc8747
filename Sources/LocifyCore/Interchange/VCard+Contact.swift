extension VCard {
    /// A contact as a vCard 4.0 card: names, birthday, each address with its label and position, and
    /// its fields (`contactFields`, of the `kinds` given): e-mails as EMAIL, phone numbers as TEL, web
    /// profiles as URL and other accounts as IMPP, each with its labels as TYPE.
    public init(
        _ aggregate: ContactAggregate, contactFields: [ContactField] = [], kinds: [ContactFieldType] = [],
        countries: CountryCatalog = .bundled
    ) {
        let contact = aggregate.contact
        self.init(
            uid: "urn:uuid:\(contact.uuid.lowercasedText)", formattedName: contact.completeName,
            givenName: contact.fields.firstName, familyName: contact.fields.lastName,
            nickname: contact.fields.nickname, birthday: contact.fields.birthdate,
            addresses: aggregate.addresses.map { stored in
                let address = stored.address
                return VCard.Address(
                    types: address.label.map { [$0.lowercased()] } ?? [], street: address.street, city: address.city,
                    region: address.province, postalCode: address.postalCode,
                    country: address.countryCode.flatMap { countries.country(matching: $0)?.name },
                    label: address.lines(countries: countries).joined(separator: "\n"), coordinate: address.coordinate)
            },
            photoURI: nil, note: contact.fields.description)
        organization = contact.fields.company
        title = contact.fields.job
        categories = aggregate.tags.map(\.name)
        genderSex = contact.fields.gender.map(\.type)
        genderName = contact.fields.gender?.name
        let kindsByID = Dictionary(kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for field in contactFields {
            guard let kind = kindsByID[field.typeID] else { continue }
            let types = field.labels.map(\.label.type)
            if kind.isEmail {
                emails.append(TypedValue(field.data, types: types))
            } else if kind.isPhone {
                telephones.append(TypedValue(field.data, types: types))
            } else if let uri = kind.uri(for: field.data) ?? kind.nameScheme.map({ $0 + ":" + field.data }) {
                let isWeb = ["http", "https"].contains(ContactFieldType.scheme(of: uri) ?? "")
                if isWeb {
                    urls.append(TypedValue(uri, types: types))
                } else {
                    messaging.append(TypedValue(uri, types: types))
                }
            }
        }
    }
}

extension VCard {
    /// The card as a contact to create: N's given and family names (else the formatted name as the first
    /// name), the birthday, the note, ORG and TITLE as where the person works, GENDER's name (else its
    /// letter) as the gender. Its e-mails and phone numbers are `contactFieldDrafts`.
    public var contactDraft: ContactDraft {
        let first = givenName ?? (familyName == nil ? formattedName : nil)
        return ContactDraft(
            firstName: first ?? formattedName, lastName: familyName, nickname: nickname, description: note,
            isBirthdateKnown: birthday != nil, birthdateDay: birthday?.day, birthdateMonth: birthday?.month,
            birthdateYear: birthday?.year, genderName: genderName ?? genderSex, job: title, company: organization)
    }

    /// TYPE values that say how a value is used rather than label it.
    private static let unlabelledTypes: Set<String> = ["pref", "internet", "voice", "x400", "text", "uri"]

    /// The card's e-mails, phone numbers, and the URL and IMPP values one of `kinds` recognises (by its
    /// protocol, or a scheme named as the kind), as fields to create; the others are returned as
    /// `leftOut`, so an import can say so.
    public func contactFieldDrafts(kinds: [ContactFieldType]) -> (drafts: [ContactFieldDraft], leftOut: [String]) {
        // Standard labels in any case become their key (`CELL` is `cell`); people's own keep theirs.
        func labels(_ types: [String]) -> [String] {
            types.filter { !Self.unlabelledTypes.contains($0.lowercased()) }.map {
                ContactFieldLabel.standard[$0.lowercased()] == nil ? $0 : $0.lowercased()
            }
        }

        var drafts: [ContactFieldDraft] = []
        var leftOut: [String] = []
        for (values, kind) in [(emails, kinds.first(where: \.isEmail)), (telephones, kinds.first(where: \.isPhone))] {
            for typed in values {
                guard let kind else {
                    leftOut.append(typed.value)
                    continue
                }
                drafts.append(ContactFieldDraft(typeID: kind.id, data: typed.value, labels: labels(typed.types)))
            }
        }
        let linkKinds = kinds.filter { !$0.isEmail && !$0.isPhone }
        for typed in urls + messaging {
            let match = linkKinds.lazy.compactMap { kind in kind.data(fromURI: typed.value).map { (kind.id, $0) } }
                .first
            if let (kindID, data) = match {
                drafts.append(ContactFieldDraft(typeID: kindID, data: data, labels: labels(typed.types)))
            } else {
                leftOut.append(typed.value)
            }
        }
        return (drafts, leftOut)
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
