/// Addresses and places written straight to the output, as `ContactResource+DirectJSON` does for
/// contacts: the synthesised `Encodable` costs a container box per nested object (the country, the map
/// links, the geocoding state), which was most of the time the sync feed spent writing a page of
/// addresses or places. The bytes are the synthesised encoding's (`DirectJSONTests` compares them).
extension AddressResource: DirectJSONWritable, AddressJSONCommon {
    func writeJSON(to writer: JSONWriter) throws {
        try writeAddress(to: writer, contact: contact)
    }
}

extension AddressShortResource: DirectJSONWritable, AddressJSONCommon {
    func writeJSON(to writer: JSONWriter) throws {
        try writeAddress(to: writer, contact: nil)
    }
}

/// The keys Monica's full and short addresses share, in the same order in both.
protocol AddressJSONCommon {
    var id: Int { get }
    var uuid: String { get }
    var object: String { get }
    var name: String? { get }
    var street: String? { get }
    var city: String? { get }
    var province: String? { get }
    var postalCode: String? { get }
    var latitude: Double? { get }
    var longitude: Double? { get }
    var country: CountryResource? { get }
    var url: String { get }
    var account: AccountReference { get }
    var createdAt: String { get }
    var updatedAt: String { get }
    var contactID: Int { get }
    var formatted: [String] { get }
    var mapLinks: MapLinksResource { get }
    var geocode: GeocodeResource { get }
}

extension AddressJSONCommon {
    /// The address; the full shape names its contact after the account.
    func writeAddress(to writer: JSONWriter, contact: ContactShortResource?) throws {
        writer.append(#"{"id":"#)
        writer.writeInteger(id)
        writer.append(#","uuid":"#)
        writer.writeString(uuid)
        writer.append(#","object":"#)
        writer.writeString(object)
        writer.append(#","name":"#)
        writer.writeOptional(name)
        writer.append(#","street":"#)
        writer.writeOptional(street)
        writer.append(#","city":"#)
        writer.writeOptional(city)
        writer.append(#","province":"#)
        writer.writeOptional(province)
        writer.append(#","postal_code":"#)
        writer.writeOptional(postalCode)
        writer.append(#","latitude":"#)
        try writer.writeOptional(latitude)
        writer.append(#","longitude":"#)
        try writer.writeOptional(longitude)
        writer.append(#","country":"#)
        if let country {
            writer.append(#"{"id":"#)
            writer.writeString(country.id)
            writer.append(#","object":"#)
            writer.writeString(country.object)
            writer.append(#","name":"#)
            writer.writeString(country.name)
            writer.append(#","iso":"#)
            writer.writeString(country.iso)
            writer.append("}")
        } else {
            writer.writeNull()
        }
        writer.append(#","url":"#)
        writer.writeString(url)
        writer.append(#","account":{"id":"#)
        writer.writeInteger(account.id)
        writer.append("}")
        if let contact {
            writer.append(#","contact":"#)
            try contact.writeJSON(to: writer)
        }
        writer.append(#","created_at":"#)
        writer.writeString(createdAt)
        writer.append(#","updated_at":"#)
        writer.writeString(updatedAt)
        writer.append(#","contact_id":"#)
        writer.writeInteger(contactID)
        writer.append(#","formatted":["#)
        for (index, line) in formatted.enumerated() {
            if index > 0 { writer.append(",") }
            writer.writeString(line)
        }
        writer.append(#"],"map_links":"#)
        mapLinks.writeJSON(to: writer)
        writer.append(#","geocode":{"status":"#)
        writer.writeString(geocode.status)
        writer.append(#","precision":"#)
        writer.writeOptional(geocode.precision)
        writer.append(#","source":"#)
        writer.writeOptional(geocode.source)
        writer.append("}}")
    }
}

extension MapLinksResource {
    func writeJSON(to writer: JSONWriter) {
        writer.append(#"{"geo":"#)
        writer.writeString(geo)
        writer.append(#","apple":"#)
        writer.writeString(apple)
        writer.append(#","google":"#)
        writer.writeString(google)
        writer.append(#","osm":"#)
        writer.writeString(osm)
        writer.append(#","organic_maps":"#)
        writer.writeString(organicMaps)
        writer.append(#","osmand":"#)
        writer.writeOptional(osmand)
        writer.append("}")
    }
}

extension PlaceResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writer.append(#"{"id":"#)
        writer.writeInteger(id)
        writer.append(#","uuid":"#)
        writer.writeString(uuid)
        writer.append(#","object":"#)
        writer.writeString(object)
        writer.append(#","name":"#)
        writer.writeString(name)
        writer.append(#","address":"#)
        writer.writeOptional(address)
        writer.append(#","latitude":"#)
        try writer.writeOptional(latitude)
        writer.append(#","longitude":"#)
        try writer.writeOptional(longitude)
        writer.append(#","notes":"#)
        writer.writeOptional(notes)
        writer.append(#","category_id":"#)
        writer.writeInteger(categoryID)
        writer.append(#","category":{"id":"#)
        writer.writeInteger(category.id)
        writer.append(#","name":"#)
        writer.writeString(category.name)
        writer.append(#"},"is_favorite":"#)
        writer.writeBool(isFavorite)
        writer.append(#","rating":"#)
        writer.writeOptional(rating)
        writer.append(#","source":"#)
        writer.writeOptional(source)
        writer.append(#","external_id":"#)
        writer.writeOptional(externalID)
        writer.append(#","precision":"#)
        writer.writeString(precision)
        writer.append(#","map_links":"#)
        mapLinks.writeJSON(to: writer)
        writer.append(#","share_text":"#)
        writer.writeString(shareText)
        writer.append(#","distance_km":"#)
        try writer.writeOptional(distanceKm)
        writer.append(#","url":"#)
        writer.writeString(url)
        writer.append(#","account":{"id":"#)
        writer.writeInteger(account.id)
        writer.append(#"},"created_at":"#)
        writer.writeString(createdAt)
        writer.append(#","updated_at":"#)
        writer.writeString(updatedAt)
        writer.append("}")
    }
}
