import FluentKit
import FluentPostgresDriver
import Foundation
import LocifyCore
import SQLKit
import SQLiteKit
import SQLiteNIO

/// One row of a plain read query, read by column position. The values are read straight from the
/// driver's own row: SQLKit's `SQLRow.decode` goes through a generic `Decoder`, a protocol conformance
/// check and a name look-up for every column, which was a quarter of a list request's time on SQLite and
/// a third of the sync feed's on PostgreSQL. A query whose binds PostgreSQL's driver cannot take directly
/// is read through `SQLRow` by name.
struct PlainRow {
    // Separate stored properties rather than an enum with payloads: binding an enum's payload in every
    // column read copied the row's values (a retain and a release per column, thousands per timeline).
    /// The row's values on SQLite, in select order; empty on other databases.
    private let sqliteValues: [SQLiteData]
    /// The row on PostgreSQL, its cells in select order.
    private let postgresRow: PostgresRandomAccessRow?
    /// Whether the row's cells are binary whatever the row's description says: the rows of a statement
    /// PostgresNIO prepared (`PostgresStatements`) are asked for in binary, but described as the
    /// statement was, in text.
    private let postgresCellsAreBinary: Bool
    /// The row read through SQLKit.
    private let sqlRow: (any SQLRow)?
    /// The selected columns in order, for reading by name and for error messages.
    private let names: [String]

    struct UnreadableColumn: Error, CustomStringConvertible {
        let column: String
        let expected: String
        var description: String { "column \(column) does not hold \(expected)" }
    }

    /// A value that may be NULL.
    func text(_ index: Int) throws -> String? {
        if let cell = postgresCell(index) { return try Self.read(cell, as: String.self) }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: String.self) }
        return try read(sqliteValues, index, "text") { String(sqliteData: $0) }
    }

    func integer(_ index: Int) throws -> Int? {
        if let cell = postgresCell(index) { return try Self.read(cell, as: Int.self) }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: Int.self) }
        return try read(sqliteValues, index, "an integer") { Int(sqliteData: $0) }
    }

    func double(_ index: Int) throws -> Double? {
        if let cell = postgresCell(index) {
            // A computed number (an average) comes as numeric, which the driver reads as a Decimal only.
            if cell.dataType == .numeric {
                return try Self.read(cell, as: Decimal.self).map { NSDecimalNumber(decimal: $0).doubleValue }
            }
            return try Self.read(cell, as: Double.self)
        }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: Double.self) }
        return try read(sqliteValues, index, "a number") { Double(sqliteData: $0) }
    }

    func bool(_ index: Int) throws -> Bool? {
        if let cell = postgresCell(index) { return try Self.read(cell, as: Bool.self) }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: Bool.self) }
        return try read(sqliteValues, index, "a boolean") { Bool(sqliteData: $0) }
    }

    func date(_ index: Int) throws -> Date? {
        if let cell = postgresCell(index) { return try Self.read(cell, as: Date.self) }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: Date.self) }
        return try read(sqliteValues, index, "a date") { Date(sqliteData: $0) }
    }

    /// Bytes (a BLOB or a bytea).
    func bytes(_ index: Int) throws -> [UInt8]? {
        if let cell = postgresCell(index) {
            guard var buffer = try Self.read(cell, as: ByteBuffer.self) else { return nil }
            return buffer.readBytes(length: buffer.readableBytes)
        }
        if let row = sqlRow {
            // PostgreSQL reads a bytea as a buffer; `[UInt8]` would be taken for an array of numbers.
            guard var buffer = try row.decodeIfPresent(column: names[index], as: ByteBuffer.self) else { return nil }
            return buffer.readBytes(length: buffer.readableBytes)
        }
        return try read(sqliteValues, index, "bytes") { value in
            guard case .blob(var buffer) = value else { return nil }
            return buffer.readBytes(length: buffer.readableBytes)
        }
    }

    /// SQLite keeps UUIDs as text, which Foundation parses slowly through `Decodable`.
    func uuid(_ index: Int) throws -> UUID? {
        if let cell = postgresCell(index) { return try Self.read(cell, as: UUID.self) }
        if let row = sqlRow { return try row.decodeIfPresent(column: names[index], as: UUID.self) }
        return try read(sqliteValues, index, "a UUID") { value in
            String(sqliteData: value).flatMap(UUID.init(canonicalText:))
        }
    }

    // The same readers for a column that is never NULL.
    func requiredText(_ index: Int) throws -> String { try required(text(index), index) }
    func requiredInteger(_ index: Int) throws -> Int { try required(integer(index), index) }
    func requiredBool(_ index: Int) throws -> Bool { try required(bool(index), index) }
    func requiredDouble(_ index: Int) throws -> Double { try required(double(index), index) }
    func requiredDate(_ index: Int) throws -> Date { try required(date(index), index) }
    func requiredUUID(_ index: Int) throws -> UUID { try required(uuid(index), index) }
    func requiredBytes(_ index: Int) throws -> [UInt8] { try required(bytes(index), index) }

    /// Column `index`'s stored number read as the value it names (a fixed catalogue's id); a number no
    /// version of Locify writes makes the row unreadable, rather than another value.
    func requiredInteger<Value>(_ index: Int, naming expected: String, _ value: (Int) -> Value?) throws -> Value {
        guard let found = value(try requiredInteger(index)) else {
            throw UnreadableColumn(column: names[index], expected: expected)
        }
        return found
    }

    /// Column `index`'s stored text read as the value it names (a day, a status).
    func requiredText<Value>(_ index: Int, naming expected: String, _ value: (String) -> Value?) throws -> Value {
        guard let found = value(try requiredText(index)) else {
            throw UnreadableColumn(column: names[index], expected: expected)
        }
        return found
    }

    /// `requiredText(_:naming:_:)` for a column that may be empty: nil for NULL.
    func text<Value>(_ index: Int, naming expected: String, _ value: (String) -> Value?) throws -> Value? {
        guard let text = try text(index) else { return nil }
        guard let found = value(text) else { throw UnreadableColumn(column: names[index], expected: expected) }
        return found
    }

    /// Cell `index` of the row on PostgreSQL; nil on other databases.
    private func postgresCell(_ index: Int) -> PostgresCell? {
        guard var cell = postgresRow?[index] else { return nil }
        if postgresCellsAreBinary { cell.format = .binary }
        return cell
    }

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

    private static func read<Value: PostgresDecodable>(_ cell: PostgresCell, as type: Value.Type) throws -> Value? {
        guard cell.bytes != nil else { return nil }
        return try cell.decode(Value.self, context: .default)
    }

    fileprivate init(sqliteValues: [SQLiteData], names: [String]) {
        self.sqliteValues = sqliteValues
        postgresRow = nil
        postgresCellsAreBinary = false
        sqlRow = nil
        self.names = names
    }

    fileprivate init(postgres row: PostgresRow, names: [String], cellsAreBinary: Bool = false) {
        sqliteValues = []
        postgresRow = PostgresRandomAccessRow(row)
        postgresCellsAreBinary = cellsAreBinary
        sqlRow = nil
        self.names = names
    }

    fileprivate init(sql row: any SQLRow, names: [String]) {
        sqliteValues = []
        postgresRow = nil
        postgresCellsAreBinary = false
        sqlRow = row
        self.names = names
    }
}

extension Database {
    /// Runs a read query that selects `columns`, in that order, and returns its rows for reading by
    /// position. The SQL is the same on every database; only the reading differs.
    ///
    /// On SQLite the statement is kept prepared for the connection's next use of the same text (see
    /// `SQLiteStatements`), and the rows are read on the database thread in one go.
    func plainRows(_ query: SQLQueryString, columns: [String]) async throws -> [PlainRow] {
        let sql = try sqlDatabase()
        var serializer = SQLSerializer(database: sql)
        query.serialize(to: &serializer)
        guard let sqlite = self as? any SQLiteDatabase else {
            if let postgres = self as? any PostgresDatabase, let bindings = Self.postgresBindings(serializer.binds) {
                return try await Self.postgresRows(serializer.sql, bindings, on: postgres, logger: logger)
                    .map { PlainRow(postgres: $0, names: columns) }
            }
            return try await sql.raw(query).all().map { PlainRow(sql: $0, names: columns) }
        }
        let encoder = SQLiteDataEncoder()
        let binds = try serializer.binds.map { try encoder.encode($0) }
        if logger.logLevel <= .debug {
            logger.debug("\(serializer.sql) \(binds)")
        }
        let text = serializer.sql
        let values = try await sqlite.withConnection { connection in
            if let rows = try await SQLiteStatements.rows(text, binds, on: connection) { return rows }
            let collected = RowCollector<[SQLiteData]>()
            try await connection.query(text, binds) { row in collected.rows.append(row.columns.map(\.data)) }
            return collected.rows
        }
        return values.map { PlainRow(sqliteValues: $0, names: columns) }
    }

    /// `plainRows` for a query that takes longer to plan than to run: on PostgreSQL it is kept prepared
    /// on each connection (see `PostgresStatements`) when its binds are all whole numbers. SQLite keeps
    /// every plain query's statement anyway.
    func preparedRows(_ query: SQLQueryString, columns: [String]) async throws -> [PlainRow] {
        guard let postgres = self as? any PostgresDatabase else { return try await plainRows(query, columns: columns) }
        var serializer = SQLSerializer(database: try sqlDatabase())
        query.serialize(to: &serializer)
        let numbers = serializer.binds.compactMap { $0 as? Int }
        guard numbers.count == serializer.binds.count else { return try await plainRows(query, columns: columns) }
        let text = serializer.sql
        if logger.logLevel <= .debug { logger.debug("\(text) \(numbers)") }
        let kept = try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask { try await PostgresStatements.rows(text, numbers, on: connection) }
        }.get()
        guard let rows = kept else { return try await plainRows(query, columns: columns) }
        return rows.map { PlainRow(postgres: $0, names: columns, cellsAreBinary: true) }
    }

    /// The binds as PostgreSQL's driver takes them, when each is a value it encodes itself (a number, a
    /// text, a date, a UUID, a list of them); nil when one needs PostgresKit's `Encodable` path.
    private static func postgresBindings(_ binds: [any Encodable]) -> PostgresBindings? {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            guard let value = bind as? any PostgresThrowingDynamicTypeEncodable,
                (try? bindings.append(value, context: .default)) != nil
            else { return nil }
        }
        return bindings
    }

    private static func postgresRows(
        _ sql: String, _ bindings: PostgresBindings, on database: any PostgresDatabase, logger: Logger
    ) async throws -> [PostgresRow] {
        if logger.logLevel <= .debug { logger.debug("\(sql) \(bindings)") }
        let collected = RowCollector<PostgresRow>()
        _ = try await database.withConnection { connection in
            connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                collected.rows.append($0)
            }
        }.get()
        return collected.rows
    }
}

extension Database {
    /// One page of an owner's rows in `table` (a contact's child table: addresses, reminders), of one
    /// contact when `contactID` is given, in `sort` order (after `leadingOrder`, a list's own order that
    /// `sort` only breaks ties of), with the total counted in the same query. `matching` narrows the rows
    /// further (an activity's contacts are in a table of their own). Each row is read by `read` from
    /// `columns`, which come first in the select list.
    func ownedChildPage<Field: ColumnSortField, Value>(
        table: String, columns: [String], ownerID: Int, contactID: Int?, matching condition: SQLQueryString? = nil,
        sort: ListSort<Field>, leadingOrder: SQLQueryString? = nil, page: PageSelection,
        read: (PlainRow) throws -> Value
    ) async throws -> ([Value], PageWindow) {
        var conditions: SQLQueryString = #""user_id" = \#(literal: ownerID)"#
        if let contactID { conditions += #" AND "contact_id" = \#(literal: contactID)"# }
        if let condition { conditions += " AND " + condition }
        let direction: SQLQueryString = sort.isDescending ? "DESC" : "ASC"
        let column = SQLQueryString(#""\#(sort.field.column)""#)
        var order: SQLQueryString = leadingOrder.map { $0 + ", " } ?? ""
        // SQLite puts NULLs first and PostgreSQL last: rows without the date go last on both.
        if sort.field.isNullable { order += "\(column) IS NULL, " }
        order += "\(column) \(direction), \"id\" \(direction)"
        let offset = (page.page - 1) * page.limit
        let rows = try await plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)), \
            (SELECT COUNT(*) FROM "\(unsafeRaw: table)" WHERE \(conditions)) AS "total" \
            FROM "\(unsafeRaw: table)" WHERE \(conditions) \
            ORDER BY \(order) LIMIT \(literal: page.limit) OFFSET \(literal: offset)
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

extension Database {
    /// The currency of the owner's most recently changed amount among `tables` (each with `user_id`,
    /// `currency` and `updated_at`): what a form for a new amount offers first.
    func latestCurrency(in tables: [String], ownerID: Int) async throws -> String? {
        guard !tables.isEmpty else { return nil }
        let each = tables.map { table -> SQLQueryString in
            #"SELECT "currency", "updated_at" FROM "\#(unsafeRaw: table)" WHERE "user_id" = \#(literal: ownerID) AND "currency" IS NOT NULL"#
        }
        let union = each.dropFirst().reduce(each[0]) { $0 + " UNION ALL " + $1 }
        let rows = try await plainRows(
            #"SELECT "currency" FROM (\#(union)) AS "amounts" ORDER BY "updated_at" DESC LIMIT 1"#,
            columns: ["currency"])
        return try rows.first?.text(0)
    }
}

/// The rows of one query, as the driver hands them to its row closure: SQLiteNIO on its one database
/// thread, PostgresNIO on the connection's event loop, one row after another. The rows are read only
/// after the query has finished: a lock per row bought nothing.
private final class RowCollector<Row>: @unchecked Sendable {
    var rows: [Row] = []
}
