import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Contacts' postal addresses, with where the geocoder put them; an address goes with its contact.
enum AddressesTable: StoredTable {
    static let name = "addresses"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case label
        case street
        case city
        case province
        case postalCode = "postal_code"
        /// ISO alpha-2.
        case country
        case latitude
        case longitude
        case geocodeStatus = "geocode_status"
        case geocodePrecision = "geocode_precision"
        case geocodeSource = "geocode_source"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "address", revision: .revision, uuid: .uuid, parent: .contact)

    /// The columns `address(from:)` reads.
    static let addressColumns = selection(Column.allCases)

    static func address(from row: PlainRow) throws -> ContactAddress {
        var coordinate: Coordinate?
        if let latitude = try row.double(10), let longitude = try row.double(11) {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        let address = PostalAddress(
            label: try row.text(4), street: try row.text(5), city: try row.text(6), province: try row.text(7),
            postalCode: try row.text(8), countryCode: try row.text(9), coordinate: coordinate)
        let geocode = GeocodeState(
            status: GeocodeStatus(rawValue: try row.requiredText(12)) ?? .none,
            precision: try row.text(13).flatMap(GeocodingPrecision.init(rawValue:)), source: try row.text(14))
        return ContactAddress(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3), address: address, geocode: geocode,
            createdAt: try row.requiredDate(15), updatedAt: try row.requiredDate(16))
    }

    /// The columns an address and its geocoding state set.
    static func values(of address: PostalAddress, geocode: GeocodeState, now: Date) -> TableWriter<Self>.Values {
        [
            .label: address.label, .street: address.street, .city: address.city, .province: address.province,
            .postalCode: address.postalCode, .country: address.countryCode,
            .latitude: address.coordinate?.latitude, .longitude: address.coordinate?.longitude,
            .geocodeStatus: geocode.status.rawValue, .geocodePrecision: geocode.precision?.rawValue,
            .geocodeSource: geocode.source, .updatedAt: now,
        ]
    }

    /// The addresses of each of `contactIDs` (all of `ownerID`'s), in one query, oldest first: a page
    /// of contacts shows its addresses without a query per contact.
    static func addresses(
        ofContacts contactIDs: [Int], ownerID: Int, on database: any Database
    ) async throws -> [Int: [ContactAddress]] {
        guard !contactIDs.isEmpty else { return [:] }
        let ids = SQLQueryString(Set(contactIDs).sorted().map(String.init).joined(separator: ", "))
        let rows = try await database.plainRows(
            """
            SELECT \(addressColumns.list) FROM "addresses" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" IN (\(ids)) ORDER BY "contact_id", "id"
            """, columns: addressColumns.names)
        return Dictionary(grouping: try rows.map(address(from:)), by: \.contactID)
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
