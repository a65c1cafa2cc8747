import FluentKit
import SQLKit

/// A table's name and its columns, spelled once. The migration that makes the table, the queries that
/// read it (`selection(_:)`) and the `TableWriter` that writes it all name columns through `Column`, so a
/// renamed column is one edit and a misspelt one does not compile.
///
/// Every table has a file `<Feature>/<Name>Table.swift` holding its `StoredTable` and its row reader;
/// its migrations are one per file under `<Feature>/Migrations/`.
protocol StoredTable {
    associatedtype Column: RawRepresentable<String>, CaseIterable, Hashable, Sendable
    static var name: String { get }
    /// How sync sees the table; nil (the default) for one no client keeps a copy of (sessions, jobs).
    static var sync: SyncedColumns<Column>? { get }
}

extension StoredTable {
    static var sync: SyncedColumns<Column>? { nil }

    /// Every column's name, in declaration order.
    static var columnNames: [String] { Column.allCases.map(\.rawValue) }

    /// Values of a row to write, by column (see `TableWriter`).
    typealias Values = [Column: any Encodable & Sendable]

    /// The table as a quoted identifier, for a query.
    static var quoted: SQLQueryString { SQLQueryString(#""\#(name)""#) }

    /// The columns a query selects, in order: a `PlainRow` of such a query is read by these positions.
    static func selection(_ columns: [Column]) -> ColumnSelection<Column> {
        ColumnSelection(columns: columns, table: name)
    }

    /// `"user_id" = <owner> AND "id" = <id>`: one row of one owner.
    static func ownedRow(_ id: Int, ownedBy ownerID: Int) -> SQLQueryString {
        #""id" = \#(literal: id) AND "user_id" = \#(literal: ownerID)"#
    }
}

/// Columns selected in a fixed order, quoted once: quoting identifiers anew for every query was a sixth
/// of a list request's time.
struct ColumnSelection<Column: RawRepresentable<String>>: Sendable where Column: Sendable {
    /// The column names, for `Database.plainRows(_:columns:)`.
    let names: [String]
    /// `"a", "b", …`
    let list: SQLQueryString
    /// `"table"."a", "table"."b", …`, for a query that joins another table.
    let qualifiedList: SQLQueryString

    init(columns: [Column], table: String) {
        names = columns.map(\.rawValue)
        list = .columnList(names)
        qualifiedList = .columnList(names, of: table)
    }
}

extension Database {
    /// The row `id` of `Table` if `ownerID` owns it, read by `read`; another account's row is as absent as a
    /// missing one.
    func requireOwnedRow<Table: StoredTable, Value>(
        _ id: Int, ownedBy ownerID: Int, in table: Table.Type, selecting selection: ColumnSelection<Table.Column>,
        read: (PlainRow) throws -> Value
    ) async throws -> Value {
        let rows = try await plainRows(
            "SELECT \(selection.list) FROM \(Table.quoted) WHERE \(Table.ownedRow(id, ownedBy: ownerID))",
            columns: selection.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try read(row)
    }

    /// The rows `ids` of one owner, in no promised order; an id that is not the owner's is left out.
    func ownedRows<Table: StoredTable, Value>(
        _ ids: [Int], ownedBy ownerID: Int, in table: Table.Type, selecting selection: ColumnSelection<Table.Column>,
        read: (PlainRow) throws -> Value
    ) async throws -> [Value] {
        guard !ids.isEmpty else { return [] }
        return try await plainRows(
            "SELECT \(selection.list) FROM \(Table.quoted) WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))",
            columns: selection.names
        ).map(read)
    }
}
