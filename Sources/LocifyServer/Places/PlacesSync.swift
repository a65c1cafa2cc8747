import LocifyAPI
import Vapor

extension SyncedType {
    static let place = SyncedType(PlacesTable.self) { request, ids in
        let places = try await request.ownedRows(
            ids, in: PlacesTable.self, selecting: PlacesTable.placeColumns,
            read: { PlaceService.Found(place: try PlacesTable.place(from: $0), distanceKilometers: nil) })
        return byID(try await request.placeResources(places), id: \.id, as: SyncRecord.place)
    }

    /// Categories with their places' count, as `GET /api/categories/{id}` answers them.
    static let category = SyncedType(PlaceCategoriesTable.self) { request, ids in
        let wanted = Set(ids)
        let categories = try await request.places().categories().categories.filter { wanted.contains($0.0.id) }
        return byID(
            categories.map { PlaceCategoryResource($0.0, placesCount: $0.1) }, id: \.id, as: SyncRecord.category)
    }
}
