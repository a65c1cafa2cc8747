import Fluent
import Foundation
import LocifyCore
import SQLKit

/// What the person asking may do with a place, a category, a comment or a picture, and whose records
/// they are: the services are then built with the owner's id (`PlaceService(ownerID:)`).
struct PlaceAccess: Equatable, Sendable {
    let ownerID: Int
    let categoryID: Int
    let role: PlaceRole

    var isOwner: Bool { role == .owner }

    /// Refuses a change the person may not make: a reader's, or a member's where only the owner may.
    func require(_ needed: PlaceRole) throws {
        guard role >= needed else { throw PlaceSharingFailure.notAllowed(needed) }
    }
}

/// Categories shared between accounts, as one person (`userID`) sees them: what they may reach of
/// others' places, whom they share their own categories with, and their categories' public links.
/// Anything neither theirs nor shared with them is as absent as a missing record (404).
struct CategorySharing {
    let database: any Database
    let userID: Int
    let dependencies: LocifyDependencies

    // MARK: Access

    func access(toCategory id: Int) async throws -> PlaceAccess {
        try await access(
            #"FROM "place_categories" AS "t" JOIN "place_categories" AS "c" ON "c"."id" = "t"."id""#, id: id)
    }

    func access(toPlace id: Int) async throws -> PlaceAccess {
        try await access(
            #"FROM "places" AS "t" JOIN "place_categories" AS "c" ON "c"."id" = "t"."category_id""#, id: id)
    }

    func access(toComment id: Int) async throws -> PlaceAccess {
        try await access(
            """
            FROM "place_comments" AS "t" JOIN "places" AS "p" ON "p"."id" = "t"."place_id" \
            JOIN "place_categories" AS "c" ON "c"."id" = "p"."category_id"
            """, id: id)
    }

    func access(toPhoto id: Int) async throws -> PlaceAccess {
        try await access(
            """
            FROM "place_photos" AS "t" JOIN "places" AS "p" ON "p"."id" = "t"."place_id" \
            JOIN "place_categories" AS "c" ON "c"."id" = "p"."category_id"
            """, id: id)
    }

    /// The row `id` of the table `t` in `from`, whose category is `c`: the person's own, or shared with them.
    private func access(_ from: SQLQueryString, id: Int) async throws -> PlaceAccess {
        let rows = try await database.plainRows(
            """
            SELECT "c"."user_id", "c"."id", "s"."can_edit" \(from) \
            LEFT JOIN "category_shares" AS "s" ON "s"."category_id" = "c"."id" AND "s"."member_id" = \(literal: userID) \
            WHERE "t"."id" = \(literal: id) AND ("c"."user_id" = \(literal: userID) OR "s"."id" IS NOT NULL)
            """, columns: ["user_id", "category_id", "can_edit"])
        guard let row = rows.first else { throw AppError.notFound }
        let ownerID = try row.requiredInteger(0)
        return PlaceAccess(
            ownerID: ownerID, categoryID: try row.requiredInteger(1),
            role: ownerID == userID ? .owner : PlaceRole(canEdit: try row.bool(2) ?? false))
    }

    // MARK: Shared with the person

    /// A category someone else shares with the person.
    struct SharedCategory: Sendable {
        let category: PlaceCategory
        let ownerName: String
        let role: PlaceRole
        let placesCount: Int

        /// The category named with its owner, for a choice among the person's own.
        var labelled: PlaceCategory {
            var labelled = category
            labelled.name += " (shared by \(ownerName))"
            return labelled
        }
    }

    /// The categories others share with the person, by name, then owner.
    func sharedWithMe() async throws -> [SharedCategory] {
        try await shared(where: "TRUE")
    }

    func sharedCategory(_ id: Int) async throws -> SharedCategory {
        guard let found = try await shared(where: #""c"."id" = \#(literal: id)"#).first else {
            throw AppError.notFound
        }
        return found
    }

    /// Of the categories shared with the person, those the person may add places to: where a place
    /// made by them goes, besides their own.
    func editableSharedCategories() async throws -> [SharedCategory] {
        try await sharedWithMe().filter { $0.role.canEditPlaces }
    }

    private func shared(where condition: SQLQueryString) async throws -> [SharedCategory] {
        let columns = PlaceCategoriesTable.categoryColumns.names.map { #""c"."\#($0)""# }.joined(separator: ", ")
        let rows = try await database.plainRows(
            """
            SELECT \(unsafeRaw: columns), "u"."name", "s"."can_edit", \
            (SELECT COUNT(*) FROM "places" WHERE "places"."category_id" = "c"."id") AS "places_count" \
            FROM "category_shares" AS "s" JOIN "place_categories" AS "c" ON "c"."id" = "s"."category_id" \
            JOIN "users" AS "u" ON "u"."id" = "c"."user_id" \
            WHERE "s"."member_id" = \(literal: userID) AND \(condition) ORDER BY "c"."name_key", "u"."name", "c"."id"
            """, columns: PlaceCategoriesTable.categoryColumns.names + ["owner_name", "can_edit", "places_count"])
        return try rows.map {
            SharedCategory(
                category: try PlaceCategoriesTable.category(from: $0), ownerName: try $0.requiredText(5),
                role: PlaceRole(canEdit: try $0.requiredBool(6)), placesCount: try $0.requiredInteger(7))
        }
    }

    /// Stops seeing a category shared with the person; the owner's places stay the owner's.
    func leave(_ categoryID: Int) async throws {
        let left = try await TableWriter(CategorySharesTable.self, on: database).delete(
            where: #""category_id" = \#(literal: categoryID) AND "member_id" = \#(literal: userID)"#)
        guard left > 0 else { throw AppError.notFound }
    }

    // MARK: The person's own categories, shared

    /// An account a category is shared with, as its owner sees it.
    struct Member: Sendable {
        let share: CategoryShare
        let name: String
        let email: String
    }

    /// Whom the person shares their category `categoryID` with, by name.
    func members(of categoryID: Int) async throws -> [Member] {
        try await requireOwnCategory(categoryID)
        return try await members(where: #""s"."category_id" = \#(literal: categoryID)"#)
    }

    func member(_ shareID: Int) async throws -> Member {
        guard let found = try await members(where: #""s"."id" = \#(literal: shareID)"#).first else {
            throw AppError.notFound
        }
        return found
    }

    private func members(where condition: SQLQueryString) async throws -> [Member] {
        let columns = CategorySharesTable.shareColumns.names.map { #""s"."\#($0)""# }.joined(separator: ", ")
        let rows = try await database.plainRows(
            """
            SELECT \(unsafeRaw: columns), "u"."name", "u"."email" FROM "category_shares" AS "s" \
            JOIN "users" AS "u" ON "u"."id" = "s"."member_id" \
            WHERE "s"."user_id" = \(literal: userID) AND \(condition) ORDER BY "u"."name", "s"."id"
            """, columns: CategorySharesTable.shareColumns.names + ["name", "email"])
        return try rows.map {
            Member(
                share: try CategorySharesTable.share(from: $0), name: try $0.requiredText(7),
                email: try $0.requiredText(8))
        }
    }

    /// Shares the person's category with the account that has the draft's address; sharing again with
    /// the same account changes what they may do.
    func share(_ categoryID: Int, _ draft: CategoryShareDraft, typeErrors: [FieldError] = []) async throws -> Member {
        try await requireOwnCategory(categoryID)
        let (email, canEdit) = try ValidationFailure.checking(typeErrors: typeErrors) {
            () throws(ValidationFailure) in try draft.validated()
        }
        let found = try await database.plainRows(
            #"SELECT "id" FROM "users" WHERE "email" = \#(bind: email)"#, columns: ["id"])
        guard let memberID = try found.first?.requiredInteger(0) else {
            throw ValidationFailure(
                field: "email",
                "No account on this server uses \(email): ask them to make one, then share the category again.",
                reason: .unknownReference)
        }
        guard memberID != userID else {
            throw ValidationFailure(
                field: "email", "That is your own address: the category is already yours.", reason: .conflict)
        }
        let now = dependencies.now()
        // Sharing twice with one account (two invitations at once too) keeps one share, with the last access.
        let rows = try await TableWriter(CategorySharesTable.self, on: database).insert(
            [
                .category: categoryID, .owner: userID, .member: memberID, .canEdit: canEdit, .createdAt: now,
                .updatedAt: now,
            ], onConflict: [.category, .member], updating: [.canEdit, .updatedAt], returning: [.id])
        guard let id = try rows.first?.integer(0) else { throw WriteFailure.noRowReturned(CategorySharesTable.name) }
        return try await member(id)
    }

    /// Changes what a member of one of the person's categories may do: at once, on their next request.
    func change(_ shareID: Int, canEdit: Bool) async throws -> Member {
        let changed = try await TableWriter(CategorySharesTable.self, on: database).update(
            [.canEdit: canEdit, .updatedAt: dependencies.now()],
            where: #""id" = \#(literal: shareID) AND "user_id" = \#(literal: userID)"#)
        guard changed > 0 else { throw AppError.notFound }
        return try await member(shareID)
    }

    /// Stops sharing one of the person's categories with a member.
    func revoke(_ shareID: Int) async throws {
        let revoked = try await TableWriter(CategorySharesTable.self, on: database).delete(
            where: #""id" = \#(literal: shareID) AND "user_id" = \#(literal: userID)"#)
        guard revoked > 0 else { throw AppError.notFound }
    }

    // MARK: Public links

    /// The token of the person's category's public link, and when it was made, if it has one.
    func link(of categoryID: Int) async throws -> (token: String, createdAt: Date)? {
        try await requireOwnCategory(categoryID)
        let rows = try await database.plainRows(
            """
            SELECT "token", "created_at" FROM "category_links" \
            WHERE "category_id" = \(literal: categoryID) AND "user_id" = \(literal: userID)
            """, columns: ["token", "created_at"])
        return try rows.first.map { (try $0.requiredText(0), try $0.requiredDate(1)) }
    }

    /// The category's public link, made now unless it has one.
    func makeLink(of categoryID: Int) async throws -> (token: String, createdAt: Date) {
        if let existing = try await link(of: categoryID) { return existing }
        let token = dependencies.newSecret()
        let now = dependencies.now()
        try await TableWriter(CategoryLinksTable.self, on: database).insert(
            [[.category: categoryID, .owner: userID, .token: token, .createdAt: now]], onConflict: [.category])
        guard let made = try await link(of: categoryID) else { throw AppError.notFound }
        return made
    }

    /// Forgets the category's public link: its address shows nothing from now on.
    func revokeLink(of categoryID: Int) async throws {
        try await requireOwnCategory(categoryID)
        let revoked = try await TableWriter(CategoryLinksTable.self, on: database).delete(
            where: #""category_id" = \#(literal: categoryID) AND "user_id" = \#(literal: userID)"#)
        guard revoked > 0 else { throw AppError.notFound }
    }

    /// The category a public link shows, and its owner, for anyone holding the token.
    static func linkedCategory(token: String, on database: any Database) async throws -> PlaceCategory {
        guard CategoryLinkToken.isWellFormed(token) else { throw AppError.notFound }
        let columns = PlaceCategoriesTable.categoryColumns.names.map { #""c"."\#($0)""# }.joined(separator: ", ")
        let rows = try await database.plainRows(
            """
            SELECT \(unsafeRaw: columns) FROM "category_links" AS "l" \
            JOIN "place_categories" AS "c" ON "c"."id" = "l"."category_id" WHERE "l"."token" = \(bind: token)
            """, columns: PlaceCategoriesTable.categoryColumns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try PlaceCategoriesTable.category(from: row)
    }

    private func requireOwnCategory(_ id: Int) async throws {
        guard try await access(toCategory: id).isOwner else { throw AppError.notFound }
    }
}

/// Why a member of a shared category cannot do something.
enum PlaceSharingFailure: AppFailure, Equatable {
    case notAllowed(PlaceRole)

    var kind: FailureKind { .forbidden }

    var messages: [String] {
        switch self {
        case .notAllowed(.owner): ["Only the owner of this category can do that."]
        case .notAllowed:
            ["This category is shared with you to read: only its owner and its editors change its places."]
        }
    }
}
