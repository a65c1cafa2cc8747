import Fluent
import Foundation
import LocifyCore
import SQLKit

extension PlaceService {

    /// Every category, by name, with how many places each holds; and how many places are favorites.
    func categories() async throws -> (categories: [(PlaceCategory, Int)], favorites: Int) {
        let query: SQLQueryString = """
            SELECT \(PlaceCategoriesTable.categoryColumns.list), \
            (SELECT COUNT(*) FROM "places" WHERE "places"."category_id" = "place_categories"."id") AS "places_count" \
            FROM "place_categories" WHERE "user_id" = \(literal: ownerID) ORDER BY "name_key", "id"
            """
        let columns = PlaceCategoriesTable.categoryColumns.names + ["places_count"]
        var rows = try await database.plainRows(query, columns: columns)
        // The last category cannot be deleted, so none at all means a person's first look.
        if rows.isEmpty {
            try await ensureDefaultCategories()
            rows = try await database.plainRows(query, columns: columns)
        }
        let categories = try rows.map { (try PlaceCategoriesTable.category(from: $0), try $0.requiredInteger(5)) }
        let favorites = try await database.plainRows(
            """
            SELECT COUNT(*) AS "n" FROM "places" WHERE "user_id" = \(literal: ownerID) AND "is_favorite" = \(bind: true)
            """, columns: ["n"])
        return (categories, try favorites.first?.requiredInteger(0) ?? 0)
    }

    func category(_ id: Int) async throws -> PlaceCategory {
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceCategoriesTable.categoryColumns.list) FROM "place_categories" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PlaceCategoriesTable.categoryColumns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try PlaceCategoriesTable.category(from: row)
    }

    /// The category named `name`, ignoring case, if the person has one.
    func category(named name: String) async throws -> PlaceCategory? {
        let key = PlaceCategory.uniquenessKey(name)
        return try await categories().categories.first { PlaceCategory.uniquenessKey($0.0.name) == key }?.0
    }

    func createCategory(named text: String?, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> PlaceCategory
    {
        guard typeErrors.isEmpty else { throw ValidationFailure(typeErrors) }
        // The name's own rules first; whether it is taken only once this is known not to be a retry.
        _ = try PlaceCategory.validatedName(text, existing: [])
        try await database.requireNewRecord(uuid, in: PlaceCategoriesTable.self, ownedBy: ownerID)
        try await ensureDefaultCategories()
        let name = try PlaceCategory.validatedName(text, existing: try await categoryNames())
        return try await category(try await insertCategory(named: name, uuid: uuid))
    }

    func renameCategory(_ id: Int, to text: String?, typeErrors: [FieldError] = []) async throws -> PlaceCategory {
        let current = try await category(id)
        guard typeErrors.isEmpty else { throw ValidationFailure(typeErrors) }
        let others = try await categoryNames().filter {
            PlaceCategory.uniquenessKey($0) != PlaceCategory.uniquenessKey(current.name)
        }
        let name = try PlaceCategory.validatedName(text, existing: others)
        let now = dependencies.now()
        let values: PlaceCategoriesTable.Values = [
            .name: name, .nameKey: PlaceCategory.uniquenessKey(name), .updatedAt: now,
        ]
        try await database.write(PlaceCategoriesTable.self, ownedBy: ownerID, at: now) { [ownerID] in
            try await $0.update(id, ownedBy: ownerID, set: values)
        }
        return try await category(id)
    }

    /// Deletes a category. Its places, if any, move to `moveTo` in the same transaction; without it a
    /// category that holds places stays, and so does the last category.
    func deleteCategory(_ id: Int, moveTo: Int?) async throws {
        let (all, _) = try await categories()
        guard let count = all.first(where: { $0.0.id == id })?.1 else { throw AppError.notFound }
        guard all.count > 1 else {
            throw ValidationFailure(
                field: "id", "The last category cannot be deleted: every place needs one.", reason: .conflict)
        }
        if count > 0 {
            guard let moveTo else {
                throw ValidationFailure(
                    field: "move_to",
                    "This category holds \(count) place\(count == 1 ? "" : "s"): say which category receives them (move_to).",
                    reason: .conflict)
            }
            guard moveTo != id else {
                throw ValidationFailure(
                    field: "move_to", "move_to must be another of your categories.", reason: .conflict)
            }
            guard all.contains(where: { $0.0.id == moveTo }) else {
                throw ValidationFailure(
                    field: "move_to", "move_to must be another of your categories.", reason: .unknownReference)
            }
        }
        let now = dependencies.now()
        try await database.write(ownedBy: ownerID, at: now) { [ownerID] transaction in
            if let moveTo, count > 0 {
                try await TableWriter(PlacesTable.self, on: transaction).update(
                    [.category: moveTo, .updatedAt: now],
                    where: #""category_id" = \#(literal: id) AND "user_id" = \#(literal: ownerID)"#)
            }
            try await TableWriter(PlaceCategoriesTable.self, on: transaction).delete(id, ownedBy: ownerID)
        }
    }

    func categoryNames() async throws -> [String] {
        try await database.plainRows(
            #"SELECT "name" FROM "place_categories" WHERE "user_id" = \#(literal: ownerID)"#, columns: ["name"]
        ).map { try $0.requiredText(0) }
    }

    /// Restaurant, Cafe, Tourist Attraction and Other for a person who has no category yet. Since the last
    /// category cannot be deleted, this happens once; two first requests at once insert each name once.
    func ensureDefaultCategories() async throws {
        let existing = try await database.plainRows(
            #"SELECT "id" FROM "place_categories" WHERE "user_id" = \#(literal: ownerID) LIMIT 1"#, columns: ["id"])
        guard existing.isEmpty else { return }
        let (now, newUUID) = (dependencies.now(), dependencies.newUUID)
        try await database.write(PlaceCategoriesTable.self, ownedBy: ownerID, at: now) { [ownerID] categories in
            try await categories.insert(
                PlaceCategory.defaults.map { name in
                    [
                        .uuid: newUUID(), .owner: ownerID, .name: name, .nameKey: PlaceCategory.uniquenessKey(name),
                        .createdAt: now,
                        .updatedAt: now,
                    ]
                }, onConflict: [.owner, .nameKey])
        }
    }

    /// A new category named `name` (already checked); its id.
    func insertCategory(named name: String, uuid: UUID? = nil) async throws -> Int {
        let now = dependencies.now()
        let values: PlaceCategoriesTable.Values = [
            .uuid: uuid ?? dependencies.newUUID(), .owner: ownerID, .name: name,
            .nameKey: PlaceCategory.uniquenessKey(name),
            .createdAt: now,
            .updatedAt: now,
        ]
        return try await database.write(PlaceCategoriesTable.self, ownedBy: ownerID, at: now) {
            try await $0.insert(values)
        }
    }
}
