import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Places and categories of one owner (the shape of `ContactService`): owner-scoped queries, Core values
/// in and out, no HTTP. A person's first use makes the default categories.
struct PlaceService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(PlaceSortField.createdAt)

    /// Every place `filter` passes, by name: for exports.
    func all(filter: PlaceFilter) async throws -> [Place] {
        let rows = try await database.plainRows(
            """
            SELECT \(PlacesTable.placeColumns.list) FROM "places" WHERE \(conditions(filter)) ORDER BY "name_key", "id"
            """, columns: PlacesTable.placeColumns.names)
        return try rows.map(PlacesTable.place(from:)).filter(filter.matches)
    }

    /// The places that pass `filter`, each with its category's name, for an export; with their pictures'
    /// links when `photoLink` makes them, and the pictures' bytes too for a format that holds them.
    func records(
        filter: PlaceFilter, photoLink: ((PlacePhoto) -> String)? = nil, includingBytes: Bool = false
    ) async throws -> [PlaceRecord] {
        let found = try await all(filter: filter)
        let names = try await categoryNames(of: found.map(\.categoryID))
        var records = found.map { PlaceRecord($0, categoryName: names[$0.categoryID]) }
        guard let photoLink else { return records }
        let pictures = PlacePhotoService(database: database, ownerID: ownerID, dependencies: dependencies)
        let photos = try await pictures.photos(ofPlaces: found.map(\.id))
        let bytes = includingBytes ? try await pictures.bytes(of: photos.values.flatMap { $0 }) : [:]
        for (index, place) in found.enumerated() {
            records[index].photos = (photos[place.id] ?? []).map {
                PlaceRecord.Picture(
                    link: photoLink($0), fileName: $0.storedFilename, mimeType: $0.format.mimeType,
                    bytes: bytes[$0.digest])
            }
        }
        return records
    }

    func place(_ id: Int) async throws -> Place {
        let rows = try await database.plainRows(
            """
            SELECT \(PlacesTable.placeColumns.list) FROM "places" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PlacesTable.placeColumns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try PlacesTable.place(from: row)
    }

    func create(_ draft: PlaceDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws -> Place {
        let (fields, categoryID) = try draft.validated(typeErrors: typeErrors)
        try await database.requireNewRecord(uuid, in: PlacesTable.self, ownedBy: ownerID)
        try await requireCategory(categoryID)
        return try await place(try await insertStatement([(fields, categoryID)], uuids: uuid.map { [$0] })[0])
    }

    /// Saves a new place (`placeID` nil) or changes one, in a category made for it when `newCategory`
    /// names one (the web form's "new category" field): both checked first, every problem reported at
    /// once (the category's under `new_category`), then both written in one transaction, so a refused
    /// place leaves no category behind.
    func save(
        _ draft: PlaceDraft, placeID: Int?, newCategory: String?, typeErrors: [FieldError] = []
    ) async throws -> Place {
        let wanted = newCategory?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !wanted.isEmpty else {
            if let placeID { return try await update(placeID, typeErrors: typeErrors) { _ in draft } }
            return try await create(draft, typeErrors: typeErrors)
        }
        try await ensureDefaultCategories()
        if let placeID { _ = try await place(placeID) }
        var problems: [FieldError] = []
        var categoryName: String?
        let existing = try await categoryNames()
        do {
            categoryName = try PlaceCategory.validatedName(wanted, existing: existing)
        } catch {
            problems += error.errors.map { FieldError(field: "new_category", message: $0.message) }
        }
        var placeholder = draft
        placeholder.categoryID = 0
        var fields: PlaceFields?
        do {
            fields = try placeholder.validated(typeErrors: typeErrors).0
        } catch {
            problems += error.errors
        }
        guard let categoryName, let fields, problems.isEmpty else { throw ValidationFailure(problems) }
        let id = try await database.write(ownedBy: ownerID, at: dependencies.now()) { [self] transaction in
            let writer = PlaceService(database: transaction, ownerID: ownerID, dependencies: dependencies)
            let categoryID = try await writer.insertCategory(named: categoryName)
            if let placeID {
                try await writer.write(fields, categoryID: categoryID, to: placeID)
                return placeID
            }
            return try await writer.insert(fields, categoryID: categoryID)
        }
        return try await place(id)
    }

    /// Stores checked fields in one of the owner's categories; the new place's id.
    func insert(_ fields: PlaceFields, categoryID: Int) async throws -> Int {
        try await insert([(fields, categoryID)])[0]
    }

    /// New places in one statement, each with its category; their ids in the same order. One statement
    /// rather than one a place: an import's batch holds SQLite's one write lock, and every statement is a
    /// trip to the database's thread and back, so fewer trips are a shorter wait for everyone else.
    func insert(_ places: [(fields: PlaceFields, categoryID: Int)]) async throws -> [Int] {
        // 15 values a place: 400 places stay under both databases' limits on one statement's values.
        var ids: [Int] = []
        for start in stride(from: 0, to: places.count, by: 400) {
            ids += try await insertStatement(places[start..<min(start + 400, places.count)])
        }
        return ids
    }

    private func insertStatement(
        _ places: ArraySlice<(fields: PlaceFields, categoryID: Int)>, uuids given: [UUID]? = nil
    ) async throws -> [Int] {
        let now = dependencies.now()
        let uuids = given ?? places.map { _ in dependencies.newUUID() }
        let values = zip(places, uuids).map { place, uuid in
            var values = PlacesTable.values(of: place.fields, categoryID: place.categoryID, now: now)
            values.merge([.uuid: uuid, .owner: ownerID, .createdAt: now]) { $1 }
            return values
        }
        // RETURNING promises no order, so each id is found again by the UUID it was given.
        let rows = try await database.write(PlacesTable.self, ownedBy: ownerID, at: now) {
            try await $0.insert(values, returning: [.id, .uuid])
        }
        var ids: [UUID: Int] = [:]
        for row in rows {
            if let uuid = try row.uuid(1), let id = try row.integer(0) { ids[uuid] = id }
        }
        return try uuids.map { uuid in
            guard let id = ids[uuid] else { throw AppError.notFound }
            return id
        }
    }

    /// A place imported again adds what the stored one lacks (notes, address, being a favorite, a rating) and
    /// changes nothing it has. One statement, so an import's transaction starts with a write.
    func fillGaps(of id: Int, with fields: PlaceFields) async throws {
        let now = dependencies.now()
        try await database.write(PlacesTable.self, ownedBy: ownerID, at: now) { [ownerID] places in
            try await places.update(
                [.updatedAt: now],
                computing: [
                    .notes: #"COALESCE("notes", \#(bind: fields.notes))"#,
                    .address: #"COALESCE("address", \#(bind: fields.address))"#,
                    .isFavorite: #"("is_favorite" OR \#(bind: fields.isFavorite))"#,
                    .rating: #"COALESCE("rating", \#(bind: fields.rating))"#,
                    .externalID: #"COALESCE("external_id", \#(bind: fields.externalID))"#,
                ], where: PlacesTable.ownedRow(id, ownedBy: ownerID))
        }
    }

    /// Changes a stored place: `change` gets it as a draft and returns the new one.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (PlaceDraft) -> PlaceDraft) async throws -> Place {
        let stored = try await place(id)
        var draft = change(PlaceDraft(stored))
        let coordinate = stored.fields.coordinate
        if draft.latitude != coordinate.latitude || draft.longitude != coordinate.longitude {
            draft.coordinatePrecision = nil  // a position a person gave
        }
        let (fields, categoryID) = try draft.validated(typeErrors: typeErrors)
        if categoryID != stored.categoryID { try await requireCategory(categoryID) }
        var changed = stored
        changed.categoryID = categoryID
        changed.fields = fields
        changed.updatedAt = try await write(fields, categoryID: categoryID, to: id)
        return changed
    }

    /// Writes over a stored place; when it did.
    @discardableResult
    private func write(_ fields: PlaceFields, categoryID: Int, to id: Int) async throws -> Date {
        let now = dependencies.now()
        let values = PlacesTable.values(of: fields, categoryID: categoryID, now: now)
        try await database.write(PlacesTable.self, ownedBy: ownerID, at: now) { [ownerID] in
            try await $0.update(id, ownedBy: ownerID, set: values)
        }
        return now
    }

    func setFavorite(_ id: Int, _ favorite: Bool) async throws -> Place {
        try await update(id) { draft in
            var changed = draft
            changed.isFavorite = favorite
            return changed
        }
    }

    /// Deletes a place with its comments and pictures; the pictures' bytes go when nothing else shows them.
    func delete(_ id: Int) async throws {
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            try await TableWriter(PlacesTable.self, on: transaction).delete(id, ownedBy: ownerID)
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
    }

    /// The names of the categories of `found`: those a list read with its places, else asked for.
    func categoryNames(for found: [Found]) async throws -> [Int: String] {
        var names: [Int: String] = [:]
        for item in found { if let name = item.categoryName { names[item.place.categoryID] = name } }
        guard found.contains(where: { names[$0.place.categoryID] == nil }) else { return names }
        return try await categoryNames(of: found.map(\.place.categoryID))
    }

    /// The names of categories by id, for places' resources.
    func categoryNames(of ids: [Int]) async throws -> [Int: String] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            #"SELECT "id", "name" FROM "place_categories" WHERE \#(SQLQueryString.owned(by: ownerID, ids: ids))"#,
            columns: ["id", "name"])
        var names: [Int: String] = [:]
        for row in rows { names[try row.requiredInteger(0)] = try row.requiredText(1) }
        return names
    }

    /// Another account's category is as absent as a missing one, but for a place's input it is a problem
    /// with the input rather than a missing page: 422, naming the field.
    private func requireCategory(_ id: Int) async throws {
        let rows = try await database.plainRows(
            """
            SELECT "id" FROM "place_categories" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: ["id"])
        guard !rows.isEmpty else {
            throw ValidationFailure(
                field: "category_id", "category_id must be one of your categories.", reason: .unknownReference)
        }
    }

    /// `text` with LIKE's wildcards taken literally.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}

extension Database {
    /// Another account's place is as absent as a missing one, but for the input of something that belongs
    /// to a place (a comment, a picture) it is a problem with the input: 404, naming `place_id`.
    func requirePlace(_ id: Int, ownedBy ownerID: Int) async throws {
        let rows = try await plainRows(
            #"SELECT "id" FROM "places" WHERE "user_id" = \#(literal: ownerID) AND "id" = \#(literal: id)"#,
            columns: ["id"])
        guard !rows.isEmpty else {
            throw ValidationFailure(
                field: "place_id", "place_id must be one of your places.", reason: .unknownReference)
        }
    }
}
