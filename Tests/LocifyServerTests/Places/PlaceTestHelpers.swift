import LocifyAPI
import XCTVapor

extension Application {
    /// The account's places by name (the first 100), as the API lists them.
    func places(of account: TestAccount) async throws -> [PlaceResource] {
        try await send(.GET, "/api/places?sort=name&limit=100", headers: account.bearer)
            .decoded(PageResource<PlaceResource>.self).data
    }

    /// The account's place categories, as the API lists them.
    func placeCategories(of account: TestAccount) async throws -> [PlaceCategoryResource] {
        try await send(.GET, "/api/categories", headers: account.bearer).decoded(PlaceCategoryListResource.self).data
    }
}
