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

    /// A place of `account` in its first category, made through the API.
    func makePlace(for account: TestAccount, name: String = "Café de Flore") async throws -> PlaceResource {
        let categoryID = try await placeCategories(of: account)[0].id
        let response = try await send(
            .POST, "/api/places", headers: account.bearer,
            json: #"{"name":"\#(name)","latitude":48.854,"longitude":2.333,"category_id":\#(categoryID)}"#)
        XCTAssertEqual(response.status, .created, response.text)
        return try response.decoded(DataEnvelope<PlaceResource>.self).data
    }
}
