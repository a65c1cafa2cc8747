import Fluent
import Foundation
import LocifyCore

/// An address row. Persistence only: the domain works with `ContactAddress`, the API with `AddressResource`.
final class AddressModel: OwnedModel, @unchecked Sendable {
    static let schema = "addresses"
    static let ownerKey: KeyPath<AddressModel, ParentProperty<AddressModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Parent(key: "contact_id") var contact: ContactModel
    @OptionalField(key: "label") var label: String?
    @OptionalField(key: "street") var street: String?
    @OptionalField(key: "city") var city: String?
    @OptionalField(key: "province") var province: String?
    @OptionalField(key: "postal_code") var postalCode: String?
    /// ISO alpha-2.
    @OptionalField(key: "country") var country: String?
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    @Field(key: "geocode_status") var geocodeStatus: String
    @OptionalField(key: "geocode_precision") var geocodePrecision: String?
    @OptionalField(key: "geocode_source") var geocodeSource: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, contactID: Int, uuid: UUID, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.$contact.id = contactID
        self.createdAt = now
        self.updatedAt = now
    }

    func apply(_ address: PostalAddress, geocode: GeocodeState, now: Date) {
        label = address.label
        street = address.street
        city = address.city
        province = address.province
        postalCode = address.postalCode
        country = address.countryCode
        latitude = address.coordinate?.latitude
        longitude = address.coordinate?.longitude
        geocodeStatus = geocode.status.rawValue
        geocodePrecision = geocode.precision?.rawValue
        geocodeSource = geocode.source
        updatedAt = now
    }

    var address: PostalAddress {
        PostalAddress(
            label: label, street: street, city: city, province: province, postalCode: postalCode,
            countryCode: country,
            coordinate: latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } })
    }

    var geocode: GeocodeState {
        GeocodeState(
            status: GeocodeStatus(rawValue: geocodeStatus) ?? .none,
            precision: geocodePrecision.flatMap(GeocodingPrecision.init(rawValue:)), source: geocodeSource)
    }

    func value() throws -> ContactAddress {
        ContactAddress(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, contactID: $contact.id, address: address,
            geocode: geocode, createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension PostalAddress {
    /// The stored address as a draft, so an update can change some keys and keep the rest.
    var draft: PostalAddressDraft {
        PostalAddressDraft(
            label: label, street: street, city: city, province: province, postalCode: postalCode,
            country: countryCode, latitude: coordinate?.latitude, longitude: coordinate?.longitude)
    }
}
