import FluentKit
import Foundation
import LocifyCore
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

    /// The id of the owner's record of `table` whose uuid is `uuid` (a client's create made before), nil
    /// when there is none. Another account's record with it refuses the uuid, saying nothing of that record.
    func recordID<Table: StoredTable>(identifiedBy uuid: UUID, in table: Table.Type, ownedBy ownerID: Int)
        async throws -> Int?
    {
        let rows = try await plainRows(
            #"SELECT "id", "user_id" FROM \#(Table.quoted) WHERE "uuid" = \#(bind: uuid)"#, columns: ["id", "user_id"])
        guard let row = rows.first else { return nil }
        guard try row.requiredInteger(1) == ownerID else {
            throw ValidationFailure(field: "uuid", "This uuid cannot be used: make a new one.")
        }
        return try row.requiredInteger(0)
    }

    /// Goes on with a create named `uuid` by a client only when the owner has no record with it yet:
    /// otherwise throws `ExistingRecord` (the create was made before: a retry), or refuses another
    /// account's uuid. A service calls it once the input has passed its own checks, so a retry with a
    /// bad body is refused like any other, and before checks that the first try's record would fail (a
    /// name already taken).
    func requireNewRecord<Table: StoredTable>(_ uuid: UUID?, in table: Table.Type, ownedBy ownerID: Int)
        async throws
    {
        guard let uuid, UnusedClientUUID.known != UnusedClientUUID(table: Table.name, uuid: uuid),
            let id = try await recordID(identifiedBy: uuid, in: table, ownedBy: ownerID)
        else { return }
        throw ExistingRecord(id: id)
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

/// A client uuid its caller has found unused in `table` under the account's write lock (a push looks up
/// all of its uuids at once): `requireNewRecord` does not ask the database again.
struct UnusedClientUUID: Hashable, Sendable {
    let table: String
    let uuid: UUID

    @TaskLocal static var known: UnusedClientUUID?
}

/// A client's create was made before (same uuid): the record it made, for the route to answer with 200.
struct ExistingRecord: Error {
    let id: Int
}
