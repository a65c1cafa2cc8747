import Foundation
import LocifyCore

/// Saved places. A category that holds places cannot be deleted without moving them (the service moves
/// them in the same transaction), so the reference has no cascade. On PostgreSQL a trigger keeps
/// `place_search_keys` in step (`AddPlaceSearchKeys`), on SQLite one keeps `places_search`
/// (`AddPlaceSearchIndex`): neither is written by the server itself.
enum PlacesTable: StoredTable {
    static let name = "places"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case category = "category_id"
        case name
        /// The name as sorted (`nameKey(_:)`).
        case nameKey = "name_key"
        case address
        case latitude
        case longitude
        case notes
        case isFavorite = "is_favorite"
        case source
        case externalID = "external_id"
        /// Folded name, notes and address, searched by `q`.
        case searchKey = "search_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
        /// `CoordinatePrecision` of a position the geocoder found; null for one a person gave (`manual`).
        case coordinatePrecision = "coordinate_precision"
        /// The owner's stars, 1 to 5; null for none.
        case rating
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "place", revision: .revision, uuid: .uuid,
        dependents: [
            SyncedDependent(PlaceCommentsTable.self, by: .place), SyncedDependent(PlacePhotosTable.self, by: .place),
        ])

    /// The columns `place(from:)` reads.
    static let placeColumns = selection([
        .id, .uuid, .owner, .category, .name, .address, .latitude, .longitude, .notes, .isFavorite, .source,
        .externalID, .createdAt, .updatedAt, .coordinatePrecision, .rating,
    ])

    /// The name as sorted: folded, so "éclair" sorts with "eclair" and case does not matter.
    static func nameKey(_ name: String) -> String { TextFolding.searchKey([name]) }

    static func place(from row: PlainRow) throws -> Place {
        let fields = PlaceFields(
            name: try row.requiredText(4), address: try row.text(5),
            coordinate: Coordinate(latitude: try row.requiredDouble(6), longitude: try row.requiredDouble(7)),
            notes: try row.text(8), isFavorite: try row.requiredBool(9), rating: try row.integer(15),
            source: try row.text(10),
            externalID: try row.text(11),
            coordinatePrecision: try row.text(14).flatMap(CoordinatePrecision.init(rawValue:)) ?? .manual)
        return Place(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            categoryID: try row.requiredInteger(3), fields: fields, createdAt: try row.requiredDate(12),
            updatedAt: try row.requiredDate(13))
    }

    /// The columns a place's fields and category set.
    static func values(of fields: PlaceFields, categoryID: Int, now: Date) -> TableWriter<Self>.Values {
        [
            .category: categoryID, .name: fields.name, .nameKey: nameKey(fields.name), .address: fields.address,
            .latitude: fields.coordinate.latitude, .longitude: fields.coordinate.longitude, .notes: fields.notes,
            .isFavorite: fields.isFavorite, .rating: fields.rating, .source: fields.source,
            .externalID: fields.externalID,
            .searchKey: fields.searchKey, .updatedAt: now,
            .coordinatePrecision: fields.coordinatePrecision == .manual ? nil : fields.coordinatePrecision.rawValue,
        ]
    }
}
