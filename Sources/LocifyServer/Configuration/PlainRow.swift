import FluentKit
import Foundation
import LocifyCore
import SQLKit
import SQLiteKit
import SQLiteNIO

/// One row of a plain read query, read by column position. On SQLite the values are read straight from
/// the driver's `SQLiteData`; SQLKit's `SQLRow.decode` goes through a generic `Decoder`, a protocol
/// conformance check and a name look-up for every column, which was a quarter of a list request's time.
/// Other databases read through `SQLRow` by name.
struct PlainRow {
    private enum Values {
        case sqlite([SQLiteData])
        case sql(any SQLRow)
    }

    private let values: Values
    /// The selected columns in order, for reading by name and for error messages.
    private let names: [String]

    struct UnreadableColumn: Error, CustomStringConvertible {
        let column: String
        let expected: String
        var description: String { "column \(column) does not hold \(expected)" }
    }

    /// A value that may be NULL.
    func text(_ index: Int) throws -> String? {
        switch values {
        case .sqlite(let data): try read(data, index, "text") { String(sqliteData: $0) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: String.self)
        }
    }

    func integer(_ index: Int) throws -> Int? {
        switch values {
        case .sqlite(let data): try read(data, index, "an integer") { Int(sqliteData: $0) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: Int.self)
        }
    }

    func double(_ index: Int) throws -> Double? {
        switch values {
        case .sqlite(let data): try read(data, index, "a number") { Double(sqliteData: $0) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: Double.self)
        }
    }

    func bool(_ index: Int) throws -> Bool? {
        switch values {
        case .sqlite(let data): try read(data, index, "a boolean") { Bool(sqliteData: $0) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: Bool.self)
        }
    }

    func date(_ index: Int) throws -> Date? {
        switch values {
        case .sqlite(let data): try read(data, index, "a date") { Date(sqliteData: $0) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: Date.self)
        }
    }

    /// SQLite keeps UUIDs as text, which Foundation parses slowly through `Decodable`.
    func uuid(_ index: Int) throws -> UUID? {
        switch values {
        case .sqlite(let data):
            try read(data, index, "a UUID") { value in String(sqliteData: value).flatMap(UUID.init(canonicalText:)) }
        case .sql(let row): try row.decodeIfPresent(column: names[index], as: UUID.self)
        }
    }

    // The same readers for a column that is never NULL.
    func requiredText(_ index: Int) throws -> String { try required(text(index), index) }
    func requiredInteger(_ index: Int) throws -> Int { try required(integer(index), index) }
    func requiredBool(_ index: Int) throws -> Bool { try required(bool(index), index) }
    func requiredDate(_ index: Int) throws -> Date { try required(date(index), index) }
    func requiredUUID(_ index: Int) throws -> UUID { try required(uuid(index), index) }

    private func required<Value>(_ value: Value?, _ index: Int) throws -> Value {
        guard let value else { throw UnreadableColumn(column: names[index], expected: "a value (it is NULL)") }
        return value
    }

    private func read<Value>(
        _ data: [SQLiteData], _ index: Int, _ expected: String, _ convert: (SQLiteData) -> Value?
    ) throws -> Value? {
        let value = data[index]
        if case .null = value { return nil }
        guard let converted = convert(value) else { throw UnreadableColumn(column: names[index], expected: expected) }
        return converted
    }

    fileprivate init(sqlite row: SQLiteRow, names: [String]) {
        values = .sqlite(row.columns.map(\.data))
        self.names = names
    }

    fileprivate init(sql row: any SQLRow, names: [String]) {
        values = .sql(row)
        self.names = names
    }
}

extension Database {
    /// Runs a read query that selects `columns`, in that order, and returns its rows for reading by
    /// position. The SQL is the same on every database; only the reading differs.
    func plainRows(_ query: SQLQueryString, columns: [String]) async throws -> [PlainRow] {
        let sql = try sqlDatabase()
        guard let sqlite = self as? any SQLiteDatabase else {
            return try await sql.raw(query).all().map { PlainRow(sql: $0, names: columns) }
        }
        var serializer = SQLSerializer(database: sql)
        query.serialize(to: &serializer)
        let encoder = SQLiteDataEncoder()
        let binds = try serializer.binds.map { try encoder.encode($0) }
        if logger.logLevel <= .debug {
            logger.debug("\(serializer.sql) \(binds)")
        }
        // The future-based query: SQLiteConnection's async one costs a task per query, which measured
        // slower for short lists than the future's per-row hops.
        let rows = try await sqlite.query(serializer.sql, binds).get()
        return rows.map { PlainRow(sqlite: $0, names: columns) }
    }
}

extension Database {
    /// One page of an owner's rows in `table` (a contact's child table: addresses, reminders), of one
    /// contact when `contactID` is given, in `sort` order, with the total counted in the same query.
    /// Each row is read by `read` from `columns`, which come first in the select list.
    func ownedChildPage<Value>(
        table: String, columns: [String], ownerID: Int, contactID: Int?, sort: ListSort<TimestampSortField>,
        page: PageSelection, read: (PlainRow) throws -> Value
    ) async throws -> ([Value], PageWindow) {
        var conditions: SQLQueryString = #""user_id" = \#(literal: ownerID)"#
        if let contactID { conditions += #" AND "contact_id" = \#(literal: contactID)"# }
        let direction: SQLQueryString = sort.isDescending ? "DESC" : "ASC"
        let offset = (page.page - 1) * page.limit
        let rows = try await plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)), \
            (SELECT COUNT(*) FROM "\(unsafeRaw: table)" WHERE \(conditions)) AS "total" \
            FROM "\(unsafeRaw: table)" WHERE \(conditions) \
            ORDER BY "\(unsafeRaw: sort.field.column)" \(direction), "id" \(direction) \
            LIMIT \(literal: page.limit) OFFSET \(literal: offset)
            """, columns: columns + ["total"])
        var total = try rows.first?.requiredInteger(columns.count) ?? 0
        if rows.isEmpty, page.page > 1 {
            // Past the last page there is no row to carry the total.
            let counted = try await plainRows(
                #"SELECT COUNT(*) AS "total" FROM "\#(unsafeRaw: table)" WHERE \#(conditions)"#, columns: ["total"])
            total = try counted.first?.requiredInteger(0) ?? 0
        }
        return (try rows.map(read), page.window(total: total))
    }
}
