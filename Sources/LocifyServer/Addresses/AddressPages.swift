import LocifyCore
import Vapor

/// The address form's values as typed, kept when the form comes back with errors.
struct AddressForm: Content {
    var label: String?
    var street: String?
    var city: String?
    var province: String?
    var postalCode: String?
    var country: String?
    var latitude: String?
    var longitude: String?
    /// `refresh` redraws the form for a newly chosen country without saving (the no-JavaScript way).
    var intent: String?

    enum CodingKeys: String, CodingKey {
        case label = "name"
        case street, city, province
        case postalCode = "postal_code"
        case country, latitude, longitude, intent
    }

    /// The stored address; coordinates show only when a person typed them, so saving the form again does
    /// not turn a geocoder's answer into typed coordinates.
    init(_ stored: ContactAddress? = nil, defaultCountry: String? = nil) {
        let address = stored?.address
        label = address?.label
        street = address?.street
        city = address?.city
        province = address?.province
        postalCode = address?.postalCode
        country = address?.countryCode ?? defaultCountry
        if let stored, stored.geocode.isTypedByUser, let coordinate = address?.coordinate {
            latitude = String(coordinate.latitude)
            longitude = String(coordinate.longitude)
        }
    }

    var isRefresh: Bool { intent == "refresh" }

    /// The draft, the values that are not numbers, and whether the coordinates were typed.
    func draft(stored: ContactAddress? = nil) -> (PostalAddressDraft, [FieldError], coordinatesSent: Bool) {
        var problems: [FieldError] = []
        func number(_ text: String?, _ field: String) -> Double? {
            LooseValue.number(
                text, field: field, label: PostalAddressDraft.fieldLabels[field] ?? field, problems: &problems)
        }
        let draft = PostalAddressDraft(
            label: label, street: street, city: city, province: province, postalCode: postalCode, country: country,
            latitude: number(latitude, "latitude"), longitude: number(longitude, "longitude"))
        let typed = [latitude, longitude].contains { !($0 ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        // Emptied coordinates that had been typed are a change too: the address is looked up again.
        return (draft, problems, typed || stored?.geocode.isTypedByUser == true)
    }
}

/// The add / edit form of an address, laid out for its country: that country's fields in its order,
/// under its names ("ZIP code", "State"), with a postal code example.
enum AddressFormPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let actionURL: String
        let cancelURL: String
        let submitLabel: String
        let labelField: FormField
        let countryField: FormField
        let fields: [FormField]
        let coordinateFields: [FormField]
        let coordinatesOpen: Bool
        let geocodeNote: String?
        /// A pin to place by tapping or dragging, kept in the coordinate fields.
        let positionMap: MapView
        let offline: OfflineForm

        init(
            form: AddressForm, contact: Contact, errors: FieldMessages = [:], editing stored: ContactAddress? = nil,
            session: PageSession, tilesEnabled: Bool = true, countries: CountryCatalog = .bundled,
            formats: AddressFormats = .bundled
        ) {
            heading =
                stored == nil ? "New address for \(contact.completeName)" : "Edit address of \(contact.completeName)"
            layout = LayoutContext(title: heading, section: .contacts, session: session)
            actionURL =
                stored.map { AddressPaths.edit(contact.id, $0.id).path }
                ?? AddressPaths.list(contact.id).path
            cancelURL = ContactPaths.contact(contact.id).path
            submitLabel = stored == nil ? "Add address" : "Save address"
            if let stored {
                offline = OfflineForm(
                    .update, of: .address, id: stored.id, summary: "Changes to an address of \(contact.completeName)",
                    then: ContactPaths.contact(contact.id).path)
            } else {
                offline = OfflineForm(
                    .create, of: .address, fixed: ["contact_id": contact.id], summary: heading,
                    then: ContactPaths.contact(contact.id).path)
            }
            labelField = FormField(
                "name", label: "Label", value: form.label, errors: errors, hint: "Home, Work, or your own word.",
                maxLength: 255, suggestions: ["Home", "Work", "Other"])
            let chosen = form.country.flatMap { countries.country(matching: $0) }
            let options =
                [SelectOption(value: "", label: "No country", isSelected: chosen == nil)]
                + countries.all.sorted { $0.name < $1.name }.map {
                    SelectOption(value: $0.iso, label: $0.name, isSelected: $0.iso == chosen?.iso)
                }
            countryField = FormField(
                "country", label: "Country", control: .select, errors: errors,
                hint: "The fields below follow the country's way of writing addresses.", options: options)
            let format = chosen.flatMap { formats.format(for: $0.iso) } ?? formats.fallback
            var fields: [FormField] = []
            for field in format.fields {
                switch field {
                case .street:
                    fields.append(
                        FormField(
                            "street", label: format.label(for: .street), value: form.street, errors: errors,
                            autocomplete: "street-address", maxLength: 255))
                case .city:
                    fields.append(
                        FormField(
                            "city", label: format.cityLabel, value: form.city, errors: errors,
                            autocomplete: "address-level2", maxLength: 255))
                case .province:
                    fields.append(
                        FormField(
                            "province", label: format.provinceLabel, value: form.province, errors: errors,
                            autocomplete: "address-level1", maxLength: 255,
                            suggestions: format.subdivisions.isEmpty ? nil : format.subdivisions.map(\.key)))
                case .postalCode:
                    fields.append(
                        FormField(
                            "postal_code", label: format.postalCodeLabel, value: form.postalCode, errors: errors,
                            hint: format.postalCodeExamples.first.map { "For example \($0)." },
                            autocomplete: "postal-code", maxLength: 255))
                default:
                    break
                }
            }
            // A value the country does not use is still shown, so nothing typed is lost.
            let shown = Set(fields.map(\.name))
            let extra: [(String, String, String?)] = [
                ("street", "Street", form.street), ("city", "City", form.city), ("province", "Province", form.province),
                ("postal_code", "Postal code", form.postalCode),
            ]
            for (name, label, value) in extra where !shown.contains(name) && !(value ?? "").isEmpty {
                fields.append(FormField(name, label: label, value: value, errors: errors, maxLength: 255))
            }
            self.fields = fields
            coordinateFields = [
                FormField(
                    "latitude", label: "Latitude", value: form.latitude, errors: errors, inputMode: "decimal", size: 12),
                FormField(
                    "longitude", label: "Longitude", value: form.longitude, errors: errors, inputMode: "decimal",
                    size: 12),
            ]
            let notFound = stored?.needsPinByHand ?? false
            let around = stored?.approximateArea()
            coordinatesOpen =
                notFound || around != nil || !(form.latitude ?? "").isEmpty || !(form.longitude ?? "").isEmpty
                || errors["latitude"] != nil
                || errors["longitude"] != nil
            if let around {
                geocodeNote =
                    "The geocoder found this address only \(around): tap the map to place the pin at the door, or type its coordinates."
            } else if let stored, !stored.geocode.isTypedByUser, let coordinate = stored.address.coordinate {
                geocodeNote =
                    "Placed on the map by the geocoder at \(MapLinks.text(coordinate)). Type coordinates to place it yourself."
            } else if notFound {
                geocodeNote =
                    "This address could not be found on the map: tap the map to place the pin, or type its coordinates."
            } else {
                geocodeNote = nil
            }
            let typed = form.draft(stored: stored).0
            positionMap = .pinPicker(
                id: "address-pick-map", at: Coordinate(validLatitude: typed.latitude, longitude: typed.longitude),
                tilesEnabled: tilesEnabled)
        }
    }
}

/// One address on the contact page: its label, lines, and what can be done with it.
struct AddressCard: Encodable {
    let id: Int
    let label: String
    let lines: [String]
    /// Why there is no map (still being looked up, or not found), or why it is only approximate.
    let positionNote: String?
    /// Where the pin is placed by hand, when the geocoder could not find the address or only its area.
    let placeByHandURL: String?
    let actions: MapActions
    /// The address as text, to select and copy where no script does it.
    let shareField: FormField
    let vcardURL: String
    let editURL: String
    let deleteURL: String
    /// The delete dialog's form, kept on the device when the server cannot be reached.
    let deleteOffline: OfflineForm
    /// A small map centred on the address, when it has a position.
    let map: MapView?

    init(
        _ stored: ContactAddress, preferredApp: MapsApp, tilesEnabled: Bool = true,
        countries: CountryCatalog = .bundled
    ) {
        let address = stored.address
        id = stored.id
        label = address.label ?? "Address"
        // The postal form (some fields in capitals) is what is copied, shared and sent to maps apps; the
        // screen shows the address as it was typed.
        let written = address.lines(countries: countries)
        lines = address.lines(countries: countries, asWritten: true)
        let around = stored.approximateArea(countries: countries)
        switch (address.coordinate, stored.geocode.status) {
        case (nil, .pending): positionNote = "Finding this address on the map…"
        case (nil, .notFound): positionNote = "This address could not be found on the map."
        case (.some, _) where around != nil:
            positionNote = "The map knows this address only \(around ?? ""): directions look up the address itself."
        default: positionNote = nil
        }
        placeByHandURL =
            stored.needsPinByHand || around != nil
            ? AddressPaths.edit(stored.contactID, stored.id).path + "#position" : nil
        let precise = around == nil ? address.coordinate : nil
        actions = MapActions(
            stored.mapDestination(lines: written), preferredApp: preferredApp,
            shareText: ShareText.address(name: address.label, lines: written, coordinate: precise))
        shareField = FormField(
            "", label: "Address text", control: .textarea, value: actions.shareText, rows: 5, isReadOnly: true,
            styleClass: "share-text"
        ).identified(as: "address-\(stored.id)-text")
        vcardURL = AddressPaths.vcard(stored.contactID, stored.id).path
        editURL = AddressPaths.edit(stored.contactID, stored.id).path
        deleteURL = AddressPaths.delete(stored.contactID, stored.id).path
        deleteOffline = OfflineForm(
            .delete, of: .address, id: stored.id, summary: "Deleting the address “\(self.label)”",
            then: ContactPaths.contact(stored.contactID).path)
        let label = address.label ?? "Address"
        map = address.coordinate.map {
            MapView(
                id: "address-\(stored.id)-map", label: "Map of \(label)",
                markers: [
                    .init(
                        lat: $0.latitude, lon: $0.longitude, label: label, detail: written.first, url: nil,
                        linkText: nil, approximately: stored.coordinatePrecision, around: around)
                ],
                zoom: MapView.zoom(showing: stored.coordinatePrecision),
                tilesEnabled: tilesEnabled)
        }
    }
}

/// `GET /contacts/{id}/addresses/{aid}/delete`: the confirmation for browsers without the dialog.
enum DeleteAddressPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let card: AddressCard
        let contactName: String
        let cancelURL: String

        init(address: ContactAddress, contact: Contact, preferredApp: MapsApp, session: PageSession) {
            layout = LayoutContext(title: "Delete this address?", section: .contacts, session: session)
            card = AddressCard(address, preferredApp: preferredApp)
            contactName = contact.completeName
            cancelURL = ContactPaths.contact(contact.id).path
        }
    }
}
