import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import Vapor

/// The sync feed of a category shared with the person: its owner's revision log kept to the category, its
/// places and their pictures and comments, so a member keeps a copy as the owner does of their own. What
/// left the category is told by `present`, the uuids it holds now, on a pull's last page.
enum SharedCategorySync {
    static let types: [SyncedType] = [.category, .place, .placePhoto, .placeComment]

    /// Each type's rows that belong to the category `categoryID`.
    static func scope(_ categoryID: Int) -> [String: SQLQueryString] {
        let places: SQLQueryString =
            #""place_id" IN (SELECT "id" FROM "places" WHERE "category_id" = \#(bind: categoryID))"#
        return [
            SyncedType.category.name: #""id" = \#(bind: categoryID)"#,
            SyncedType.place.name: #""category_id" = \#(bind: categoryID)"#,
            SyncedType.placePhoto.name: places,
            SyncedType.placeComment.name: places,
        ]
    }

    static func pull(_ request: Request) async throws -> SharedCategorySyncResource {
        let categoryID = try request.pathID(.categoryID)
        let shared = try await request.categorySharing().sharedCategory(categoryID)
        let query = try SyncAPIController.PullQuery(request.queryParameters, known: types)
        let ownerID = shared.category.ownerID
        var feed = SyncFeed(database: request.database, ownerID: ownerID)
        feed.scope = scope(categoryID)
        let page = try await SyncAPIController.page(of: feed, query, on: request)
        var records: [String: [Int: SyncRecord]] = [:]
        for type in query.types {
            let ids = page.changes.filter { $0.type == type.name }.map(\.id)
            guard !ids.isEmpty else { continue }
            records[type.name] =
                switch type.name {
                case SyncedType.category.name: try await PlaceSyncRecords.categories(request, ownerID: ownerID, ids)
                case SyncedType.place.name: try await PlaceSyncRecords.places(request, ownerID: ownerID, ids)
                case SyncedType.placePhoto.name: try await PlaceSyncRecords.photos(request, ownerID: ownerID, ids)
                default: try await PlaceSyncRecords.comments(request, ownerID: ownerID, ids)
                }
        }
        let changes = page.changeResources(records)
        return SharedCategorySyncResource(
            changes: changes,
            present: page.hasMore
                ? nil
                : try await present(of: categoryID, ownerID: ownerID, types: query.types, on: request.database),
            canEdit: shared.role.canEditPlaces, cursor: page.next.text, hasMore: page.hasMore)
    }

    /// The uuids of every record of `types` the category holds now, by type, in order.
    static func present(of categoryID: Int, ownerID: Int, types: [SyncedType], on database: any Database)
        async throws -> [String: [String]]
    {
        var present: [String: [String]] = [:]
        let conditions = scope(categoryID)
        for type in types {
            guard let condition = conditions[type.name] else { continue }
            present[type.name] = try await database.plainRows(
                """
                SELECT "uuid" FROM \(ident: type.table) \
                WHERE "user_id" = \(bind: ownerID) AND \(condition) ORDER BY "uuid"
                """, columns: ["uuid"]
            ).compactMap { try $0.uuid(0)?.lowercasedText }
        }
        return present
    }
}
