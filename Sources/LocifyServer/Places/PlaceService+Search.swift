import Fluent
import Foundation
import LocifyCore
import SQLKit

extension PlaceService {
    // MARK: Lists and search

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
            SELECT \(PlacesTable.placeColumns.list), (SELECT COUNT(*) FROM "places" WHERE \(conditions)) AS "total" \
            FROM "places" WHERE \(conditions) \(order(sort)) LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
            """, columns: PlacesTable.placeColumns.names + ["total"])
        var total = try rows.first?.requiredInteger(PlacesTable.placeColumns.names.count) ?? 0
        if rows.isEmpty, page.page > 1 { total = try await count(conditions) }
        let found = try rows.map { Found(place: try PlacesTable.place(from: $0), distanceKilometers: nil) }
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
        guard filter.categoryID == nil, filter.favorite == nil, filter.minimumRating == nil, let text = filter.text
        else {
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
        let columns = ["id", "name_key", "created_at", "rating"]
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
            SortKeys(
                id: try $0.requiredInteger(0), nameKey: try $0.requiredText(1), createdAt: try $0.requiredDate(2),
                rating: try $0.integer(3) ?? 0)
        }
    }

    /// What a list sorted here needs of each place; `meters` only near a point.
    private struct SortKeys {
        let id: Int
        let nameKey: String
        let createdAt: Date
        /// 0 for none.
        let rating: Int
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
            case .rating: ordered = (a.rating, a.id) < (b.rating, b.id)
            }
            return sort.isDescending ? !ordered : ordered
        }
        let (chosen, window) = page.slice(sorted)
        let places = try await self.places(ids: chosen.map(\.id))
        let found = chosen.compactMap { keys in
            places[keys.id].map {
                Found(
                    place: $0.place, distanceKilometers: keys.meters.map { $0 / 1000 }, categoryName: $0.categoryName)
            }
        }
        return (found, window)
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
                SELECT \(PlacesTable.placeColumns.list), \(Self.categoryName(of: "walked")) FROM (\
                SELECT \(PlacesTable.placeColumns.list), "name_key", "search_key" FROM "places" \
                WHERE \(conditions(others)) \(order(sort)) LIMIT \(literal: rowsToLookAt)) AS "walked" \
                WHERE \(textCondition(text)) \(order(sort)) LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
                """, columns: PlacesTable.placeColumns.names + ["category_name"])
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
            SELECT \(PlacesTable.placeColumns.list), \(Self.categoryName(of: "matches")) FROM \(source) \(order(sort)) \
            LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
            """, columns: PlacesTable.placeColumns.names + ["category_name"])
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
            place: try PlacesTable.place(from: row), distanceKilometers: nil,
            categoryName: try row.text(PlacesTable.placeColumns.names.count))
    }

    /// The owner's places among `ids`, by id, each with its category's name (read in the same question:
    /// a list then needs no second one for the names).
    private func places(ids: [Int]) async throws -> [Int: (place: Place, categoryName: String)] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(PlacesTable.placeColumns.qualifiedList), "place_categories"."name" AS "category_name" \
            FROM "places" JOIN "place_categories" ON "place_categories"."id" = "places"."category_id" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, of: "places"))
            """, columns: PlacesTable.placeColumns.names + ["category_name"])
        var found: [Int: (place: Place, categoryName: String)] = [:]
        for row in rows {
            let place = try PlacesTable.place(from: row)
            found[place.id] = (place, try row.requiredText(PlacesTable.placeColumns.names.count))
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
        let column: SQLQueryString =
            switch sort.field {
            case .name: #""name_key""#
            case .rating: #"COALESCE("rating", 0)"#
            case .createdAt, .distance: #""created_at""#
            }
        return #"ORDER BY \#(column) \#(direction), "id" \#(direction)"#
    }

    /// Near a point: the positions in the box are read (and the sort keys), measured and ordered; then the
    /// page's places are read whole, by id.
    private func page(
        near: Coordinate, filter: PlaceFilter, sort: ListSort<PlaceSortField>, page: PageSelection
    ) async throws -> ([Found], PageWindow) {
        let columns = ["id", "latitude", "longitude", "name_key", "created_at", "rating"]
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
                    createdAt: try row.requiredDate(4), rating: try row.integer(5) ?? 0,
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
        try await database.refreshPlannerStatistics(of: [PlacesTable.name, "place_search_keys"])
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
    func conditions(_ filter: PlaceFilter, ownerFromIndex: Bool = true, askingSearchTable: Bool = true)
        -> SQLQueryString
    {
        var conditions: SQLQueryString =
            ownerFromIndex ? #""user_id" = \#(literal: ownerID)"# : #"+"user_id" = \#(literal: ownerID)"#
        if let categoryID = filter.categoryID { conditions += #" AND "category_id" = \#(literal: categoryID)"# }
        if let favorite = filter.favorite { conditions += #" AND "is_favorite" = \#(bind: favorite)"# }
        if let stars = filter.minimumRating { conditions += #" AND "rating" >= \#(literal: stars)"# }
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

}
