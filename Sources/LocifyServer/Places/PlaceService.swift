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

    // MARK: Categories

    /// Every category, by name, with how many places each holds; and how many places are favorites.
    func categories() async throws -> (categories: [(PlaceCategory, Int)], favorites: Int) {
        let query: SQLQueryString = """
            SELECT \(PlaceRows.categoryColumnList), \
            (SELECT COUNT(*) FROM "places" WHERE "places"."category_id" = "place_categories"."id") AS "places_count" \
            FROM "place_categories" WHERE "user_id" = \(literal: ownerID) ORDER BY "name_key", "id"
            """
        let columns = PlaceRows.categoryColumns + ["places_count"]
        var rows = try await database.plainRows(query, columns: columns)
        // The last category cannot be deleted, so none at all means a person's first look.
        if rows.isEmpty {
            try await ensureDefaultCategories()
            rows = try await database.plainRows(query, columns: columns)
        }
        let categories = try rows.map { (try PlaceRows.category(from: $0), try $0.requiredInteger(5)) }
        let favorites = try await database.plainRows(
            """
            SELECT COUNT(*) AS "n" FROM "places" WHERE "user_id" = \(literal: ownerID) AND "is_favorite" = \(bind: true)
            """, columns: ["n"])
        return (categories, try favorites.first?.requiredInteger(0) ?? 0)
    }

    func category(_ id: Int) async throws -> PlaceCategory {
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceRows.categoryColumnList) FROM "place_categories" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PlaceRows.categoryColumns)
        guard let row = rows.first else { throw AppError.notFound }
        return try PlaceRows.category(from: row)
    }

    /// The category named `name`, ignoring case, if the person has one.
    func category(named name: String) async throws -> PlaceCategory? {
        let key = PlaceCategory.uniquenessKey(name)
        return try await categories().categories.first { PlaceCategory.uniquenessKey($0.0.name) == key }?.0
    }

    func createCategory(named text: String?, typeErrors: [FieldError] = []) async throws -> PlaceCategory {
        guard typeErrors.isEmpty else { throw ValidationFailure(typeErrors) }
        try await ensureDefaultCategories()
        let name = try PlaceCategory.validatedName(text, existing: try await categoryNames())
        return try await category(try await insertCategory(named: name))
    }

    func renameCategory(_ id: Int, to text: String?, typeErrors: [FieldError] = []) async throws -> PlaceCategory {
        let current = try await category(id)
        guard typeErrors.isEmpty else { throw ValidationFailure(typeErrors) }
        let others = try await categoryNames().filter {
            PlaceCategory.uniquenessKey($0) != PlaceCategory.uniquenessKey(current.name)
        }
        let name = try PlaceCategory.validatedName(text, existing: others)
        try await database.sqlDatabase().raw(
            """
            UPDATE "place_categories" SET "name" = \(bind: name), "name_key" = \(bind: PlaceCategory.uniquenessKey(name)), \
            "updated_at" = \(bind: dependencies.now()) WHERE "id" = \(literal: id) AND "user_id" = \(literal: ownerID)
            """
        ).run()
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
        try await database.transaction { transaction in
            let sql = try transaction.sqlDatabase()
            if let moveTo, count > 0 {
                try await sql.raw(
                    """
                    UPDATE "places" SET "category_id" = \(literal: moveTo), "updated_at" = \(bind: now) \
                    WHERE "category_id" = \(literal: id) AND "user_id" = \(literal: ownerID)
                    """
                ).run()
            }
            try await sql.raw(
                #"DELETE FROM "place_categories" WHERE "id" = \#(literal: id) AND "user_id" = \#(literal: ownerID)"#
            ).run()
        }
    }

    private func categoryNames() async throws -> [String] {
        try await database.plainRows(
            #"SELECT "name" FROM "place_categories" WHERE "user_id" = \#(literal: ownerID)"#, columns: ["name"]
        ).map { try $0.requiredText(0) }
    }

    /// Restaurant, Cafe, Tourist Attraction and Other for a person who has no category yet. Since the last
    /// category cannot be deleted, this happens once; two first requests at once insert each name once.
    private func ensureDefaultCategories() async throws {
        let existing = try await database.plainRows(
            #"SELECT "id" FROM "place_categories" WHERE "user_id" = \#(literal: ownerID) LIMIT 1"#, columns: ["id"])
        guard existing.isEmpty else { return }
        let now = dependencies.now()
        let sql = try database.sqlDatabase()
        for name in PlaceCategory.defaults {
            try await sql.raw(
                """
                INSERT INTO "place_categories" ("user_id", "name", "name_key", "created_at", "updated_at") \
                VALUES (\(literal: ownerID), \(bind: name), \(bind: PlaceCategory.uniquenessKey(name)), \(bind: now), \
                \(bind: now)) ON CONFLICT ("user_id", "name_key") DO NOTHING
                """
            ).run()
        }
    }

    // MARK: Places

    /// A place found by a list, with its distance from the list's `near` point.
    struct Found {
        let place: Place
        let distanceKilometers: Double?
        /// Its category's name, when the list read it with the place.
        var categoryName: String? = nil
    }

    /// One page of the places `filter` passes, in `sort` order. Without `near` the database pages; with it
    /// the positions in the filter's box are read, measured exactly, sorted and paged here, and only the
    /// page's places are read whole.
    func page(filter: PlaceFilter, sort: ListSort<PlaceSortField>, page: PageSelection) async throws
        -> ([Found], PageWindow)
    {
        // Distance is measured from near; without it the list keeps the order of names.
        let sort = sort.field == .distance && filter.near == nil ? ListSort(.name) : sort
        // No place's text holds NUL (PostgreSQL cannot store it, and would refuse it in the question).
        if filter.text?.contains("\u{0}") == true { return ([], page.window(total: 0)) }
        if let near = filter.near { return try await self.page(near: near, filter: filter, sort: sort, page: page) }
        if usesSearchTable(filter) { return try await searchPage(filter: filter, sort: sort, page: page) }
        let conditions = self.conditions(filter)
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceRows.placeColumnList), (SELECT COUNT(*) FROM "places" WHERE \(conditions)) AS "total" \
            FROM "places" WHERE \(conditions) \(order(sort)) LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
            """, columns: PlaceRows.placeColumns + ["total"])
        var total = try rows.first?.requiredInteger(PlaceRows.placeColumns.count) ?? 0
        if rows.isEmpty, page.page > 1 { total = try await count(conditions) }
        let found = try rows.map { Found(place: try PlaceRows.place(from: $0), distanceKilometers: nil) }
        return (found, page.window(total: total))
    }

    /// Matches a text search sorts itself; beyond this (a word many places have) it walks the list's index
    /// instead, stopping at the page's end.
    static let searchSortLimit = 1_000
    /// On SQLite a search first reads this many matches, in no order: most searches (a name, a street) end
    /// there without counting.
    static let searchFirstReading = 100

    /// A text search (three characters or more): the matches' sort keys are read from the trigram index
    /// (see AddPlaceSearchIndex; the owner checked on each match rather than asked of an index over all the
    /// owner's places), sorted and paged here, and the page's places read by id. Past `searchSortLimit`
    /// matches the list's index is walked instead (see walkedPage).
    private func searchPage(filter: PlaceFilter, sort: ListSort<PlaceSortField>, page: PageSelection) async throws
        -> ([Found], PageWindow)
    {
        let total: Int
        if isSQLite, let text = filter.text {
            // The trigram table's matches are joined as they come, so reading a few stops early for a
            // common word; it is then counted by the table alone when nothing but the text narrows it.
            let firstKeys = try await sortKeys(matching: filter, limit: Self.searchFirstReading + 1)
            if firstKeys.count <= Self.searchFirstReading {
                return try await self.page(of: firstKeys, sort: sort, page: page)
            }
            total = try await searchCount(filter)
        } else {
            // PostgreSQL's trigram index finds every match before it returns the first, so the count comes
            // first: a common word asks it once, for the count, and is then walked.
            total = try await searchCount(filter)
        }
        guard total > Self.searchSortLimit else {
            return try await self.page(of: try await sortKeys(matching: filter), sort: sort, page: page)
        }
        return try await walkedPage(filter: filter, sort: sort, page: page, total: total)
    }

    /// How many places a text search matches. When nothing but the text narrows it, the search table
    /// counts them alone, reading no row of `places`: SQLite's FTS table by the owner's mark, PostgreSQL's
    /// narrow `place_search_keys` (see AddPlaceSearchKeys).
    private func searchCount(_ filter: PlaceFilter) async throws -> Int {
        guard filter.categoryID == nil, filter.favorite == nil, let text = filter.text else {
            return try await count(conditions(filter, ownerFromIndex: false))
        }
        let counted = try await database.plainRows(
            isSQLite
                ? """
                SELECT COUNT(*) AS "total" FROM "places_search" \
                WHERE "places_search" MATCH \(bind: searchQuery(text, ownedOnly: true))
                """
                : """
                SELECT COUNT(*) AS "total" FROM "place_search_keys" \
                WHERE "user_id" = \(literal: ownerID) AND \(textCondition(text))
                """,
            columns: ["total"])
        return try counted.first?.requiredInteger(0) ?? 0
    }

    /// The sort keys of the places a text search matches, in no order; `limit` stops early.
    private func sortKeys(matching filter: PlaceFilter, limit: Int? = nil) async throws -> [SortKeys] {
        let columns = ["id", "name_key", "created_at"]
        let source: SQLQueryString =
            if isSQLite, let text = filter.text {
                """
                "places_search" JOIN "places" ON "places"."id" = "places_search"."rowid" \
                WHERE "places_search" MATCH \(bind: searchQuery(text)) AND \
                \(conditions(filter, ownerFromIndex: false, askingSearchTable: false))
                """
            } else {
                #""places" WHERE \#(conditions(filter, ownerFromIndex: false))"#
            }
        let limited: SQLQueryString = limit.map { " LIMIT \(literal: $0)" } ?? ""
        let rows = try await database.plainRows(
            "SELECT \(SQLQueryString.columnList(columns, of: "places")) FROM \(source)\(limited)", columns: columns)
        return try rows.map {
            SortKeys(id: try $0.requiredInteger(0), nameKey: try $0.requiredText(1), createdAt: try $0.requiredDate(2))
        }
    }

    /// What a list sorted here needs of each place; `meters` only near a point.
    private struct SortKeys {
        let id: Int
        let nameKey: String
        let createdAt: Date
        var meters: Double?
    }

    /// Sorts `keys`, takes the page, and reads its places whole, in that order.
    private func page(of keys: [SortKeys], sort: ListSort<PlaceSortField>, page: PageSelection) async throws
        -> ([Found], PageWindow)
    {
        let sorted = keys.sorted { a, b in
            let ordered: Bool
            switch sort.field {
            case .distance: ordered = (a.meters ?? 0, a.id) < (b.meters ?? 0, b.id)
            case .name: ordered = (a.nameKey, a.id) < (b.nameKey, b.id)
            case .createdAt: ordered = (a.createdAt, a.id) < (b.createdAt, b.id)
            }
            return sort.isDescending ? !ordered : ordered
        }
        let start = min(page.offset, sorted.count)
        let chosen = sorted[start..<min(start + page.limit, sorted.count)]
        let places = try await self.places(ids: chosen.map(\.id))
        let found = chosen.compactMap { keys in
            places[keys.id].map {
                Found(
                    place: $0.place, distanceKilometers: keys.meters.map { $0 / 1000 }, categoryName: $0.categoryName)
            }
        }
        return (found, page.window(total: sorted.count))
    }

    /// How many of a list's places, in its order, a walk looks at for each place of the page it fills
    /// before it asks the trigram index instead: a word in one place of forty, or more.
    static let walkedRowsPerMatch = 40
    /// A walk looks at this many places at most; deeper pages ask the trigram index.
    static let walkedRowsLimit = 4_000

    /// A page of a search with many matches: the list's index walked in order, each place's text checked,
    /// until the page is full (a word in one place of twenty fills the first page within three hundred).
    /// As the total is known, a walk that looked at its share of places without filling the page is
    /// known to have fallen short (the word is rare in that order: names starting with it, say), and the
    /// page is walked again with the trigram index picking the places.
    private func walkedPage(filter: PlaceFilter, sort: ListSort<PlaceSortField>, page: PageSelection, total: Int)
        async throws -> ([Found], PageWindow)
    {
        guard total > page.offset, let text = filter.text else { return ([], page.window(total: total)) }
        let expected = min(page.limit, total - page.offset)
        let rowsToLookAt = (page.offset + page.limit) * Self.walkedRowsPerMatch
        if rowsToLookAt <= Self.walkedRowsLimit {
            var others = filter
            others.text = nil
            let walked = try await database.plainRows(
                """
                SELECT \(PlaceRows.placeColumnList), \(Self.categoryName(of: "walked")) FROM (\
                SELECT \(PlaceRows.placeColumnList), "name_key", "search_key" FROM "places" \
                WHERE \(conditions(others)) \(order(sort)) LIMIT \(literal: rowsToLookAt)) AS "walked" \
                WHERE \(textCondition(text)) \(order(sort)) LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
                """, columns: PlaceRows.placeColumns + ["category_name"])
            if walked.count == expected { return (try walked.map(Self.foundWithCategory), page.window(total: total)) }
        }
        // SQLite walks the list's index again, checking each place against the trigram table's matches;
        // PostgreSQL would walk it checking each place's text, all the way through a word rare early in
        // that order, so it sorts the matches its trigram index finds.
        let source: SQLQueryString =
            isSQLite
            ? #""places" AS "matches" WHERE \#(conditions(filter))"#
            : #"(SELECT * FROM "places" WHERE \#(conditions(filter, ownerFromIndex: false)) OFFSET 0) AS "matches""#
        let walked = try await database.plainRows(
            """
            SELECT \(PlaceRows.placeColumnList), \(Self.categoryName(of: "matches")) FROM \(source) \(order(sort)) \
            LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
            """, columns: PlaceRows.placeColumns + ["category_name"])
        return (try walked.map(Self.foundWithCategory), page.window(total: total))
    }

    /// The name of the category of the place in `table`, read with a list's page so that the list needs
    /// no second question for the names (see categoryNames(for:)).
    private static func categoryName(of table: String) -> SQLQueryString {
        SQLQueryString(
            #"(SELECT "name" FROM "place_categories" WHERE "place_categories"."id" = "\#(table)"."category_id") AS "category_name""#
        )
    }

    private static func foundWithCategory(_ row: PlainRow) throws -> Found {
        Found(
            place: try PlaceRows.place(from: row), distanceKilometers: nil,
            categoryName: try row.text(PlaceRows.placeColumns.count))
    }

    /// The owner's places among `ids`, by id, each with its category's name (read in the same question:
    /// a list then needs no second one for the names).
    private func places(ids: [Int]) async throws -> [Int: (place: Place, categoryName: String)] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceRows.qualifiedPlaceColumnList), "place_categories"."name" AS "category_name" \
            FROM "places" JOIN "place_categories" ON "place_categories"."id" = "places"."category_id" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, of: "places"))
            """, columns: PlaceRows.placeColumns + ["category_name"])
        var found: [Int: (place: Place, categoryName: String)] = [:]
        for row in rows {
            let place = try PlaceRows.place(from: row)
            found[place.id] = (place, try row.requiredText(PlaceRows.placeColumns.count))
        }
        return found
    }

    private func count(_ conditions: SQLQueryString) async throws -> Int {
        let counted = try await database.plainRows(
            #"SELECT COUNT(*) AS "total" FROM "places" WHERE \#(conditions)"#, columns: ["total"])
        return try counted.first?.requiredInteger(0) ?? 0
    }

    private func order(_ sort: ListSort<PlaceSortField>) -> SQLQueryString {
        let direction: SQLQueryString = sort.isDescending ? "DESC" : "ASC"
        let column: SQLQueryString = sort.field == .name ? #""name_key""# : #""created_at""#
        return #"ORDER BY \#(column) \#(direction), "id" \#(direction)"#
    }

    /// Near a point: the positions in the box are read (and the sort keys), measured and ordered; then the
    /// page's places are read whole, by id.
    private func page(
        near: Coordinate, filter: PlaceFilter, sort: ListSort<PlaceSortField>, page: PageSelection
    ) async throws -> ([Found], PageWindow) {
        let columns = ["id", "latitude", "longitude", "name_key", "created_at"]
        let rows = try await database.plainRows(
            #"SELECT \#(SQLQueryString.columnList(columns)) FROM "places" WHERE \#(conditions(filter))"#,
            columns: columns)
        var keys: [SortKeys] = []
        keys.reserveCapacity(rows.count)
        for row in rows {
            let coordinate = Coordinate(latitude: try row.requiredDouble(1), longitude: try row.requiredDouble(2))
            guard filter.contains(coordinate) else { continue }
            keys.append(
                SortKeys(
                    id: try row.requiredInteger(0), nameKey: try row.requiredText(3),
                    createdAt: try row.requiredDate(4),
                    meters: Geo.distance(near, coordinate)))
        }
        return try await self.page(of: keys, sort: sort, page: page)
    }

    /// Leaves PostgreSQL ready to search what an import wrote, instead of waiting for autovacuum:
    /// - the trigram index queues new entries in a pending list that every search reads whole: after an
    ///   import of thousands of places, searches took twice as long until it was filed (filing each entry
    ///   as it is inserted instead made an import of 100,000 places take 43 s rather than 24 s);
    /// - the planner's statistics still describe the tables before the import: the first searches after
    ///   one of 100,000 places took 60 ms (p50) until autovacuum analysed them.
    /// SQLite keeps no statistics here (its plans are written for that, see `SQLQueryString.owned`).
    func tidyAfterImport() async throws {
        let sql = try database.sqlDatabase()
        guard sql.dialect.name == "postgresql" else { return }
        // The index is missing where pg_trgm could not be created (see AddPlaceSearchKeys).
        try await sql.raw(
            """
            SELECT gin_clean_pending_list(c.oid) FROM pg_class c \
            WHERE c.relname = 'place_search_keys_by_text' AND c.relkind = 'i' AND pg_table_is_visible(c.oid)
            """
        ).run()
        try await sql.raw(#"ANALYZE "places", "place_search_keys""#).run()
    }

    /// The trigram table's question for `text`. `ownedOnly` adds the owner's mark (see AddPlaceSearchIndex),
    /// for a count the table answers alone; a question whose rows are joined to `places` leaves it out, as
    /// the owner is checked there and the mark's long list of places would only slow the table down.
    /// The owner's mark's delimiters: a search for text holding one scans instead (see usesSearchTable).
    private static let notInSearchQueries: Set<Character> = ["\u{2}", "\u{3}"]

    private func searchQuery(_ text: String, ownedOnly: Bool = false) -> String {
        let phrase =
            "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return ownedOnly ? "\"\u{2}\(ownerID)\u{3}\" AND " + phrase : phrase
    }

    /// Whether a text search can ask the trigram index: three characters or more (SQLite's FTS table,
    /// PostgreSQL's `place_search_keys`).
    private func usesSearchTable(_ filter: PlaceFilter) -> Bool {
        guard let text = filter.text, !text.contains(where: Self.notInSearchQueries.contains) else { return false }
        return text.unicodeScalars.count >= 3
    }

    /// The SQL conditions that narrow to `filter`: exact for category, favorite and text, the boxes for
    /// positions (a `near` distance is then checked exactly by `PlaceFilter.contains`). `ownerFromIndex`
    /// false keeps SQLite from answering "whose?" from an index of the owner's every place (SQLite's `+`
    /// makes a column no index term), so a search starts from the trigram table's matches.
    /// `askingSearchTable` false leaves the trigram table out, for a query that joins it itself.
    private func conditions(_ filter: PlaceFilter, ownerFromIndex: Bool = true, askingSearchTable: Bool = true)
        -> SQLQueryString
    {
        var conditions: SQLQueryString =
            ownerFromIndex ? #""user_id" = \#(literal: ownerID)"# : #"+"user_id" = \#(literal: ownerID)"#
        if let categoryID = filter.categoryID { conditions += #" AND "category_id" = \#(literal: categoryID)"# }
        if let favorite = filter.favorite { conditions += #" AND "is_favorite" = \#(bind: favorite)"# }
        if let text = filter.text {
            // On SQLite the FTS table finds the candidates (see AddPlaceSearchIndex) and the LIKE on the
            // place's own text decides. On PostgreSQL the narrow table's LIKE decides (see
            // AddPlaceSearchKeys), and its matches are looked up by id: with a second LIKE on `places`, or
            // with `IN`, the planner guessed a thousand matches would be cheaper to find by scanning it.
            if askingSearchTable, usesSearchTable(filter), !isSQLite {
                conditions += #"""
                     AND "id" = ANY(ARRAY(SELECT "place_id" FROM "place_search_keys" \#
                    WHERE "user_id" = \#(literal: ownerID) AND \#(textCondition(text))))
                    """#
            } else {
                if askingSearchTable, usesSearchTable(filter) {
                    conditions +=
                        #" AND "id" IN (SELECT rowid FROM "places_search" WHERE "places_search" MATCH \#(bind: searchQuery(text)))"#
                }
                conditions += " AND " + textCondition(text)
            }
        }
        for box in filter.boxes {
            conditions += #" AND "latitude" BETWEEN \#(bind: box.minLatitude) AND \#(bind: box.maxLatitude)"#
            if box.crossesAntimeridian {
                conditions +=
                    #" AND ("longitude" >= \#(bind: box.minLongitude) OR "longitude" <= \#(bind: box.maxLongitude))"#
            } else if box.minLongitude > -180 || box.maxLongitude < 180 {
                conditions += #" AND "longitude" BETWEEN \#(bind: box.minLongitude) AND \#(bind: box.maxLongitude)"#
            }
        }
        return conditions
    }

    /// Whether a place's text holds `text` (the decision; an index only finds the candidates).
    private func textCondition(_ text: String) -> SQLQueryString {
        #""search_key" LIKE \#(bind: "%" + Self.likeEscaped(text) + "%") ESCAPE '\'"#
    }

    private var isSQLite: Bool { (try? database.sqlDatabase().dialect.name) == "sqlite" }

    /// Every place `filter` passes, by name: for exports.
    func all(filter: PlaceFilter) async throws -> [Place] {
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceRows.placeColumnList) FROM "places" WHERE \(conditions(filter)) ORDER BY "name_key", "id"
            """, columns: PlaceRows.placeColumns)
        return try rows.map(PlaceRows.place(from:)).filter(filter.matches)
    }

    /// The places that pass `filter`, each with its category's name, for an export.
    func records(filter: PlaceFilter) async throws -> [PlaceRecord] {
        let found = try await all(filter: filter)
        let names = try await categoryNames(of: found.map(\.categoryID))
        return found.map { PlaceRecord($0, categoryName: names[$0.categoryID]) }
    }

    func place(_ id: Int) async throws -> Place {
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceRows.placeColumnList) FROM "places" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: PlaceRows.placeColumns)
        guard let row = rows.first else { throw AppError.notFound }
        return try PlaceRows.place(from: row)
    }

    func create(_ draft: PlaceDraft, typeErrors: [FieldError] = []) async throws -> Place {
        let (fields, categoryID) = try draft.validated(typeErrors: typeErrors)
        try await requireCategory(categoryID)
        return try await place(try await insert(fields, categoryID: categoryID))
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
        let id = try await database.transaction { transaction in
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

    private func insertStatement(_ places: ArraySlice<(fields: PlaceFields, categoryID: Int)>) async throws -> [Int] {
        let now = dependencies.now()
        let uuids = places.map { _ in dependencies.newUUID() }
        let values = zip(places, uuids).map { place, uuid -> SQLQueryString in
            let fields = place.fields
            return """
                (\(bind: uuid), \(literal: ownerID), \(literal: place.categoryID), \(bind: fields.name), \
                \(bind: PlaceRows.nameKey(fields.name)), \(bind: fields.address), \(bind: fields.coordinate.latitude), \
                \(bind: fields.coordinate.longitude), \(bind: fields.notes), \(bind: fields.isFavorite), \
                \(bind: fields.source), \(bind: fields.externalID), \(bind: fields.searchKey), \(bind: now), \(bind: now))
                """
        }
        // RETURNING promises no order, so each id is found again by the UUID it was given.
        let rows = try await database.plainRows(
            """
            INSERT INTO "places" ("uuid", "user_id", "category_id", "name", "name_key", "address", "latitude", \
            "longitude", "notes", "is_favorite", "source", "external_id", "search_key", "created_at", "updated_at") \
            VALUES \(values.joined(separator: ", ")) RETURNING "id", "uuid"
            """, columns: ["id", "uuid"])
        var ids: [UUID: Int] = [:]
        for row in rows {
            if let uuid = try row.uuid(1), let id = try row.integer(0) { ids[uuid] = id }
        }
        return try uuids.map { uuid in
            guard let id = ids[uuid] else { throw AppError.notFound }
            return id
        }
    }

    /// A place imported again adds what the stored one lacks (notes, address, being a favorite) and
    /// changes nothing it has. One statement, so an import's transaction starts with a write.
    func fillGaps(of id: Int, with fields: PlaceFields) async throws {
        try await database.sqlDatabase().raw(
            """
            UPDATE "places" SET "notes" = COALESCE("notes", \(bind: fields.notes)), \
            "address" = COALESCE("address", \(bind: fields.address)), \
            "is_favorite" = ("is_favorite" OR \(bind: fields.isFavorite)), \
            "external_id" = COALESCE("external_id", \(bind: fields.externalID)), \
            "updated_at" = \(bind: dependencies.now()) WHERE "id" = \(literal: id) AND "user_id" = \(literal: ownerID)
            """
        ).run()
    }

    /// A new category named `name` (already checked); its id.
    func insertCategory(named name: String) async throws -> Int {
        let now = dependencies.now()
        let rows = try await database.plainRows(
            """
            INSERT INTO "place_categories" ("user_id", "name", "name_key", "created_at", "updated_at") \
            VALUES (\(literal: ownerID), \(bind: name), \(bind: PlaceCategory.uniquenessKey(name)), \(bind: now), \
            \(bind: now)) RETURNING "id"
            """, columns: ["id"])
        guard let id = try rows.first?.integer(0) else { throw AppError.notFound }
        return id
    }

    /// Changes a stored place: `change` gets it as a draft and returns the new one.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (PlaceDraft) -> PlaceDraft) async throws -> Place {
        let stored = try await place(id)
        let (fields, categoryID) = try change(PlaceDraft(stored)).validated(typeErrors: typeErrors)
        if categoryID != stored.categoryID { try await requireCategory(categoryID) }
        try await write(fields, categoryID: categoryID, to: id)
        return try await place(id)
    }

    private func write(_ fields: PlaceFields, categoryID: Int, to id: Int) async throws {
        try await database.sqlDatabase().raw(
            """
            UPDATE "places" SET "category_id" = \(literal: categoryID), "name" = \(bind: fields.name), \
            "name_key" = \(bind: PlaceRows.nameKey(fields.name)), "address" = \(bind: fields.address), \
            "latitude" = \(bind: fields.coordinate.latitude), "longitude" = \(bind: fields.coordinate.longitude), \
            "notes" = \(bind: fields.notes), "is_favorite" = \(bind: fields.isFavorite), "source" = \(bind: fields.source), \
            "external_id" = \(bind: fields.externalID), "search_key" = \(bind: fields.searchKey), \
            "updated_at" = \(bind: dependencies.now()) WHERE "id" = \(literal: id) AND "user_id" = \(literal: ownerID)
            """
        ).run()
    }

    func setFavorite(_ id: Int, _ favorite: Bool) async throws -> Place {
        try await update(id) { draft in
            var changed = draft
            changed.isFavorite = favorite
            return changed
        }
    }

    func delete(_ id: Int) async throws {
        _ = try await place(id)
        try await database.sqlDatabase().raw(
            #"DELETE FROM "places" WHERE "id" = \#(literal: id) AND "user_id" = \#(literal: ownerID)"#
        ).run()
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

/// The read path of places and categories: plain SQL, rows read by position.
enum PlaceRows {
    static let categoryColumns = ["id", "user_id", "name", "created_at", "updated_at"]
    static let categoryColumnList = SQLQueryString.columnList(categoryColumns)
    static let placeColumns = [
        "id", "uuid", "user_id", "category_id", "name", "address", "latitude", "longitude", "notes", "is_favorite",
        "source", "external_id", "created_at", "updated_at",
    ]
    static let placeColumnList = SQLQueryString.columnList(placeColumns)
    /// The place columns named with their table, for a query that joins another.
    static let qualifiedPlaceColumnList = SQLQueryString.columnList(placeColumns, of: "places")

    /// The name as sorted: folded, so "éclair" sorts with "eclair" and case does not matter.
    static func nameKey(_ name: String) -> String { TextFolding.searchKey([name]) }

    static func category(from row: PlainRow) throws -> PlaceCategory {
        PlaceCategory(
            id: try row.requiredInteger(0), ownerID: try row.requiredInteger(1), name: try row.requiredText(2),
            createdAt: try row.requiredDate(3), updatedAt: try row.requiredDate(4))
    }

    static func place(from row: PlainRow) throws -> Place {
        let fields = PlaceFields(
            name: try row.requiredText(4), address: try row.text(5),
            coordinate: Coordinate(latitude: try row.requiredDouble(6), longitude: try row.requiredDouble(7)),
            notes: try row.text(8), isFavorite: try row.requiredBool(9), source: try row.text(10),
            externalID: try row.text(11))
        return Place(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            categoryID: try row.requiredInteger(3), fields: fields, createdAt: try row.requiredDate(12),
            updatedAt: try row.requiredDate(13))
    }
}
