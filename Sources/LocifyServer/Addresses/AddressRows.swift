import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The read path of addresses (the pattern of `ContactRows`): plain SQL, rows read by position.
enum AddressRows {
    enum Column: Int, CaseIterable {
        case id, uuid, userID, contactID, label, street, city, province, postalCode, country, latitude, longitude
        case geocodeStatus, geocodePrecision, geocodeSource, createdAt, updatedAt

        var name: String {
            switch self {
            case .id: "id"
            case .uuid: "uuid"
            case .userID: "user_id"
            case .contactID: "contact_id"
            case .label: "label"
            case .street: "street"
            case .city: "city"
            case .province: "province"
            case .postalCode: "postal_code"
            case .country: "country"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .geocodeStatus: "geocode_status"
            case .geocodePrecision: "geocode_precision"
            case .geocodeSource: "geocode_source"
            case .createdAt: "created_at"
            case .updatedAt: "updated_at"
            }
        }
    }

    static let columns = Column.allCases.map(\.name)

    /// The columns, qualified with `table` when a query joins.
    static func columnList(of table: String? = nil) -> SQLQueryString {
        SQLQueryString.columnList(columns, of: table)
    }

    static func address(from row: PlainRow) throws -> ContactAddress {
        func at(_ column: Column) -> Int { column.rawValue }
        var coordinate: Coordinate?
        if let latitude = try row.double(at(.latitude)), let longitude = try row.double(at(.longitude)) {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        let address = PostalAddress(
            label: try row.text(at(.label)), street: try row.text(at(.street)), city: try row.text(at(.city)),
            province: try row.text(at(.province)), postalCode: try row.text(at(.postalCode)),
            countryCode: try row.text(at(.country)), coordinate: coordinate)
        let geocode = GeocodeState(
            status: GeocodeStatus(rawValue: try row.requiredText(at(.geocodeStatus))) ?? .none,
            precision: try row.text(at(.geocodePrecision)).flatMap(GeocodingPrecision.init(rawValue:)),
            source: try row.text(at(.geocodeSource)))
        return ContactAddress(
            id: try row.requiredInteger(at(.id)), uuid: try row.requiredUUID(at(.uuid)),
            ownerID: try row.requiredInteger(at(.userID)), contactID: try row.requiredInteger(at(.contactID)),
            address: address, geocode: geocode, createdAt: try row.requiredDate(at(.createdAt)),
            updatedAt: try row.requiredDate(at(.updatedAt)))
    }
}

extension AddressRows {
    /// The addresses of each of `contactIDs` (all of `ownerID`'s), in one query, oldest first: a page
    /// of contacts shows its addresses without a query per contact.
    static func addresses(
        ofContacts contactIDs: [Int], ownerID: Int, on database: any Database
    ) async throws -> [Int: [ContactAddress]] {
        guard !contactIDs.isEmpty else { return [:] }
        let ids = SQLQueryString(Set(contactIDs).sorted().map(String.init).joined(separator: ", "))
        let rows = try await database.plainRows(
            """
            SELECT \(columnList()) FROM "addresses" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" IN (\(ids)) ORDER BY "contact_id", "id"
            """, columns: columns)
        return Dictionary(grouping: try rows.map(address(from:)), by: \.contactID)
    }
}
