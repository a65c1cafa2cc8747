import LocifyCore
import Vapor

extension OfflinePages {
    /// A place's page and its edit form; the new place form; the categories, each category's list and the favorites, every page of them; the
    /// map.
    static let place = OfflinePages(
        type: SyncedType.place.name, recordPage: PlacePaths.place.template("{id}"),
        forms: [PlacePaths.edit.template("{id}")]
    ) { request in try await placeLists(request) }

    /// A category's name shows on each of its places' pages.
    static let category = OfflinePages(type: SyncedType.category.name, reach: .everyPage(of: SyncedType.place.name)) {
        request in try await placeLists(request)
    }

    /// A comment shows on its place's page.
    static let placeComment = OfflinePages(
        type: SyncedType.placeComment.name, reach: .parent(type: SyncedType.place.name, key: ["place_id"]))

    /// A picture shows on its place's page, and the cover in the lists.
    static let placePhoto = OfflinePages(
        type: SyncedType.placePhoto.name, reach: .parent(type: SyncedType.place.name, key: ["place_id"])
    ) { request in try await placeLists(request) }

    static func placeLists(_ request: Request) async throws -> [String] {
        let (categories, favorites) = try await request.places().categories()
        let limit = PlaceListPage.pageSize
        return [PlacePaths.list.path, PlacePaths.new.path, PlacePaths.map.path]
            + pages(of: PlacePaths.favorites, total: favorites, limit: limit)
            + categories.flatMap { category, count in
                pages(of: PlacePaths.category(category.id), total: count, limit: limit)
            }
    }
}

extension OfflineSharedFeeds {
    /// Categories shared with the account: each one's pages and its places' pages (their edit forms stay
    /// online: a change made offline goes to the account's own push, which has no place of another's).
    static let sharedCategories = OfflineSharedFeeds(
        list: CategorySharePaths.apiShared.path, listPage: PlacePaths.list.path,
        collectionPage: PlacePaths.category.template("{id}"),
        pageSize: PlaceListPage.pageSize, recordType: SyncedType.place.name,
        recordPage: PlacePaths.place.template("{id}"), parentKey: "place_id")
}
