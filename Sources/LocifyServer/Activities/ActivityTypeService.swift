import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The owner's activity types and their categories, made from Monica's defaults the first time they are
/// asked for (once: an account that deletes them all keeps none).
struct ActivityTypeService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    func categories() async throws -> [ActivityTypeCategory] {
        try await seedOnce()
        return try await storedCategories()
    }

    func types() async throws -> [ActivityType] {
        try await seedOnce()
        return try await storedTypes()
    }

    /// The types with their categories, for answers that show both: the defaults looked for once.
    func catalogue() async throws -> (types: [ActivityType], categories: [ActivityTypeCategory]) {
        try await seedOnce()
        return (try await storedTypes(), try await storedCategories())
    }

    private func storedCategories() async throws -> [ActivityTypeCategory] {
        try await database.plainRows(
            """
            SELECT \(ActivityTypeCategoriesTable.categoryColumns.list) FROM "activity_type_categories" \
            WHERE "user_id" = \(literal: ownerID) ORDER BY "id"
            """, columns: ActivityTypeCategoriesTable.categoryColumns.names
        ).map(ActivityTypeCategoriesTable.category(from:))
    }

    private func storedTypes() async throws -> [ActivityType] {
        try await database.plainRows(
            """
            SELECT \(ActivityTypesTable.typeColumns.list) FROM "activity_types" \
            WHERE "user_id" = \(literal: ownerID) ORDER BY "id"
            """, columns: ActivityTypesTable.typeColumns.names
        ).map(ActivityTypesTable.type(from:))
    }

    func category(_ id: Int) async throws -> ActivityTypeCategory {
        guard let found = try await categories().first(where: { $0.id == id }) else { throw AppError.notFound }
        return found
    }

    func type(_ id: Int) async throws -> ActivityType {
        guard let found = try await types().first(where: { $0.id == id }) else { throw AppError.notFound }
        return found
    }

    // MARK: Categories

    func createCategory(name: String?, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> ActivityTypeCategory
    {
        try await seedOnce()
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ActivityTypeCategory.validatedName(name)
        }
        try await database.requireNewRecord(uuid, in: ActivityTypeCategoriesTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let id = try await database.write(ActivityTypeCategoriesTable.self, ownedBy: ownerID, at: now) {
            [ownerID] table in
            try await table.insert([.uuid: uuid, .owner: ownerID, .name: checked, .createdAt: now, .updatedAt: now])
        }
        return ActivityTypeCategory(id: id, uuid: uuid, ownerID: ownerID, name: checked, createdAt: now, updatedAt: now)
    }

    func renameCategory(_ id: Int, name: String?, typeErrors: [FieldError] = []) async throws -> ActivityTypeCategory {
        var stored = try await category(id)
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ActivityTypeCategory.validatedName(name)
        }
        let now = dependencies.now()
        try await database.write(ActivityTypeCategoriesTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await table.update(id, ownedBy: ownerID, set: [.name: checked, .updatedAt: now])
        }
        stored.name = checked
        stored.updatedAt = now
        return stored
    }

    /// Deletes the category and its types; activities of those types keep no type.
    func deleteCategory(_ id: Int) async throws {
        _ = try await category(id)
        try await database.write(ActivityTypeCategoriesTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] table in
            try await table.delete(id, ownedBy: ownerID)
        }
    }

    // MARK: Types

    func createType(
        name: String?, categoryID: Int?, locationType: String?, typeErrors: [FieldError] = [], uuid: UUID? = nil
    ) async throws -> ActivityType {
        try await seedOnce()
        var problems = typeErrors
        if categoryID == nil, !typeErrors.contains(where: { $0.field == "activity_type_category_id" }) {
            problems.append(FieldError(field: "activity_type_category_id", message: "Choose the type's category."))
        }
        let (checked, location) = try ValidationFailure.checking(typeErrors: problems) {
            () throws(ValidationFailure) in try Self.validated(name: name, locationType: locationType)
        }
        guard let categoryID else { throw ValidationFailure(problems) }
        _ = try await category(categoryID)
        try await database.requireNewRecord(uuid, in: ActivityTypesTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let id = try await database.write(ActivityTypesTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await table.insert([
                .uuid: uuid, .owner: ownerID, .category: categoryID, .name: checked, .locationType: location,
                .createdAt: now, .updatedAt: now,
            ])
        }
        return ActivityType(
            id: id, uuid: uuid, ownerID: ownerID, categoryID: categoryID, name: checked, locationType: location,
            createdAt: now, updatedAt: now)
    }

    /// A key left out (`.none`) keeps its value.
    func updateType(
        _ id: Int, name: String??, categoryID: Int??, locationType: String??, typeErrors: [FieldError] = []
    ) async throws -> ActivityType {
        var stored = try await type(id)
        let (checked, location) = try ValidationFailure.checking(typeErrors: typeErrors) {
            () throws(ValidationFailure) in
            try Self.validated(name: name ?? stored.name, locationType: locationType ?? stored.locationType)
        }
        let category = categoryID ?? stored.categoryID
        guard let category else {
            throw ValidationFailure([
                FieldError(field: "activity_type_category_id", message: "Choose the type's category.")
            ])
        }
        if category != stored.categoryID { _ = try await self.category(category) }
        let now = dependencies.now()
        try await database.write(ActivityTypesTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await table.update(
                id, ownedBy: ownerID,
                set: [.name: checked, .category: category, .locationType: location, .updatedAt: now])
        }
        stored.name = checked
        stored.categoryID = category
        stored.locationType = location
        stored.updatedAt = now
        return stored
    }

    /// Deletes the type; its activities keep no type.
    func deleteType(_ id: Int) async throws {
        _ = try await type(id)
        try await database.write(ActivityTypesTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] table in
            try await table.delete(id, ownedBy: ownerID)
        }
    }

    private static func validated(name: String?, locationType: String?) throws(ValidationFailure) -> (String, String?) {
        var problems: [FieldError] = []
        var checked = ""
        do {
            checked = try ActivityTypeCategory.validatedName(name)
        } catch {
            problems += error.errors
        }
        let location = locationType?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let location, location.unicodeScalars.count > ActivityTypeCategory.maximumNameLength {
            problems.append(
                FieldError(field: "location_type", message: "The location type must be at most 255 characters."))
        }
        if location?.unicodeScalars.contains("\u{0}") == true {
            problems.append(
                FieldError(field: "location_type", message: "The location type cannot hold the NUL character (U+0000).")
            )
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        return (checked, location?.isEmpty == true ? nil : location)
    }

    // MARK: Defaults

    /// Makes Monica's defaults for an account that never had them, under the account's write lock so two
    /// first requests at once make them once.
    private func seedOnce() async throws {
        if try await isSeeded(on: database) { return }
        let (now, newUUID) = (dependencies.now(), dependencies.newUUID)
        try await database.write(ActivityTypeCategoriesTable.self, ownedBy: ownerID, at: now) { [ownerID] categories in
            if try await Self.isSeeded(ownerID, on: categories.database) { return }
            let types = TableWriter(ActivityTypesTable.self, on: categories.database)
            for (name, typeNames) in ActivityTypeCategory.defaults {
                let categoryID = try await categories.insert([
                    .uuid: newUUID(), .owner: ownerID, .name: name, .createdAt: now, .updatedAt: now,
                ])
                for typeName in typeNames {
                    _ = try await types.insert([
                        .uuid: newUUID(), .owner: ownerID, .category: categoryID, .name: typeName, .createdAt: now,
                        .updatedAt: now,
                    ])
                }
            }
            _ = try await TableWriter(ActivityDefaultsTable.self, on: categories.database).insert([
                .owner: ownerID, .createdAt: now,
            ])
        }
    }

    private func isSeeded(on database: any Database) async throws -> Bool {
        try await Self.isSeeded(ownerID, on: database)
    }

    private static func isSeeded(_ ownerID: Int, on database: any Database) async throws -> Bool {
        try await !database.plainRows(
            #"SELECT 1 AS "seeded" FROM "activity_defaults" WHERE "user_id" = \#(literal: ownerID) LIMIT 1"#,
            columns: ["seeded"]
        ).isEmpty
    }
}
