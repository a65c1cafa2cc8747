import FluentKit
import SQLKit

/// The one write path of a table: every insert, update and delete of a `StoredTable` goes through its
/// writer, in plain SQL with every value bound. The revision log that sync adds stamps each change here,
/// so a write that bypasses the writer is a change clients never hear of.
///
/// Values are given by column; they are written in the order of `Column.allCases`, so one kind of write
/// is always the same statement text (SQLite keeps it prepared).
struct TableWriter<Table: StoredTable> {
    typealias Values = [Table.Column: any Encodable & Sendable]

    let database: any Database

    init(_ table: Table.Type, on database: any Database) {
        self.database = database
    }

    /// Inserts one row and returns its `id`.
    @discardableResult
    func insert(_ values: Values) async throws -> Int {
        let rows = try await insert([values], returning: [Self.idColumn])
        guard let id = try rows.first?.integer(0) else { throw WriteFailure.noRowReturned(Table.name) }
        return id
    }

    /// Inserts rows that all give the same columns, in one statement, and returns `returning` of each
    /// row (in no promised order: match them by a unique column).
    @discardableResult
    func insert(_ rows: [Values], returning: [String] = []) async throws -> [PlainRow] {
        guard let first = rows.first else { return [] }
        let columns = Self.ordered(first.keys)
        var tuples: [SQLQueryString] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == columns.count else { throw WriteFailure.unevenRows(Table.name) }
            var tuple: SQLQueryString = "("
            for (position, column) in columns.enumerated() {
                guard let value = row[column] else { throw WriteFailure.unevenRows(Table.name) }
                if position > 0 { tuple += ", " }
                tuple += "\(bind: value)"
            }
            tuples.append(tuple + ")")
        }
        let statement: SQLQueryString =
            "INSERT INTO \(Table.quoted) (\(SQLQueryString.columnList(columns.map(\.rawValue)))) VALUES "
            + tuples.joined(separator: ", ")
        guard !returning.isEmpty else {
            try await database.sqlDatabase().raw(statement).run()
            return []
        }
        return try await database.plainRows(
            statement + " RETURNING \(SQLQueryString.columnList(returning))", columns: returning)
    }

    /// Sets `values` (and `computed`, SQL expressions over the row's own columns) on the rows `condition`
    /// picks; returns how many it changed.
    @discardableResult
    func update(
        _ values: Values, computing computed: [Table.Column: SQLQueryString] = [:], where condition: SQLQueryString
    ) async throws -> Int {
        var assignments: [SQLQueryString] = []
        for column in Table.Column.allCases {
            if let value = values[column] {
                assignments.append(#""\#(unsafeRaw: column.rawValue)" = \#(bind: value)"#)
            } else if let expression = computed[column] {
                assignments.append(#""\#(unsafeRaw: column.rawValue)" = "# + expression)
            }
        }
        guard !assignments.isEmpty else { return 0 }
        let rows = try await database.plainRows(
            "UPDATE \(Table.quoted) SET \(assignments.joined(separator: ", ")) WHERE \(condition) RETURNING 1 AS \"changed\"",
            columns: ["changed"])
        return rows.count
    }

    /// Updates the row `id` of `ownerID`; another account's row is as absent as a missing one.
    func update(
        _ id: Int, ownedBy ownerID: Int, set values: Values, computing computed: [Table.Column: SQLQueryString] = [:]
    ) async throws {
        guard try await update(values, computing: computed, where: Table.ownedRow(id, ownedBy: ownerID)) > 0 else {
            throw AppError.notFound
        }
    }

    /// Deletes the rows `condition` picks; returns how many.
    @discardableResult
    func delete(where condition: SQLQueryString) async throws -> Int {
        let rows = try await database.plainRows(
            "DELETE FROM \(Table.quoted) WHERE \(condition) RETURNING 1 AS \"deleted\"", columns: ["deleted"])
        return rows.count
    }

    /// Deletes the row `id` of `ownerID`; another account's row is as absent as a missing one.
    func delete(_ id: Int, ownedBy ownerID: Int) async throws {
        guard try await delete(where: Table.ownedRow(id, ownedBy: ownerID)) > 0 else { throw AppError.notFound }
    }

    private static var idColumn: String { "id" }

    private static func ordered(_ columns: some Collection<Table.Column>) -> [Table.Column] {
        let given = Set(columns)
        return Table.Column.allCases.filter(given.contains)
    }

    enum WriteFailure: Error, CustomStringConvertible {
        case noRowReturned(String)
        case unevenRows(String)

        var description: String {
            switch self {
            case .noRowReturned(let table): "an insert into \(table) returned no row"
            case .unevenRows(let table): "the rows inserted into \(table) together do not give the same columns"
            }
        }
    }
}
