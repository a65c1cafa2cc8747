import FluentKit
import Foundation
import SQLKit

/// The one write path of a table: every insert, update and delete of a `StoredTable` goes through its
/// writer, in plain SQL with every value bound. The revision log that sync adds stamps each change here,
/// so a write that bypasses the writer is a change clients never hear of.
///
/// Values are given by column; they are written in the order of `Column.allCases`, so one kind of write
/// is always the same statement text (SQLite keeps it prepared).
struct TableWriter<Table: StoredTable> {
    typealias Values = Table.Values

    let database: any Database

    init(_ table: Table.Type, on database: any Database) {
        self.database = database
    }

    /// Inserts one row and returns its `id` (a table without one takes `insert([values])`).
    @discardableResult
    func insert(_ values: Values) async throws -> Int {
        guard let statement = try Self.insertStatement([values]) else { throw WriteFailure.noRowReturned(Table.name) }
        if Table.sync != nil {
            let rows = try await run(statement, returning: [], recording: .created)
            guard let id = try rows.first?.integer(0) else { throw WriteFailure.noRowReturned(Table.name) }
            return id
        }
        defer { Self.forgetReads() }
        let rows = try await database.plainRows(statement + #" RETURNING "id""#, columns: ["id"])
        guard let id = try rows.first?.integer(0) else { throw WriteFailure.noRowReturned(Table.name) }
        return id
    }

    /// Inserts rows that all give the same columns, in one statement, and returns `returning` of each
    /// row (in no promised order: match them by a unique column).
    @discardableResult
    func insert(_ rows: [Values], returning: [Table.Column] = []) async throws -> [PlainRow] {
        guard let statement = try Self.insertStatement(rows) else { return [] }
        return try await run(statement, returning: returning, recording: .created)
    }

    /// Inserts the row unless one with the same `conflict` columns (a unique constraint) exists; then sets
    /// `updating` of that row from `values`, or leaves it as it is when `updating` is empty. `returning`
    /// comes back for a row inserted or updated, not for one left as it was.
    @discardableResult
    func insert(
        _ values: Values, onConflict conflict: [Table.Column], updating: [Table.Column] = [],
        returning: [Table.Column] = []
    ) async throws -> [PlainRow] {
        try await insert([values], onConflict: conflict, updating: updating, returning: returning)
    }

    /// `insert(_:onConflict:updating:returning:)` for several rows in one statement.
    @discardableResult
    func insert(
        _ rows: [Values], onConflict conflict: [Table.Column], updating: [Table.Column] = [],
        returning: [Table.Column] = []
    ) async throws -> [PlainRow] {
        guard let statement = try Self.insertStatement(rows) else { return [] }
        let action =
            updating.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET "
                + updating.map { #""\#($0.rawValue)" = excluded."\#($0.rawValue)""# }.joined(separator: ", ")
        let upsert: SQLQueryString =
            statement + " ON CONFLICT (\(SQLQueryString.columnList(conflict.map(\.rawValue)))) \(unsafeRaw: action)"
        return try await run(upsert, returning: returning, recording: .created)
    }

    /// Runs a write, returning `returning` of the rows it wrote when asked. In a synced table every row
    /// it wrote comes back, with its id and contact after `returning`, and is noted for the audit log.
    private func run(_ statement: SQLQueryString, returning: [Table.Column], recording action: AuditAction)
        async throws -> [PlainRow]
    {
        defer { Self.forgetReads() }
        if Table.sync != nil {
            let names = returning.map(\.rawValue) + Self.auditColumns
            let rows = try await database.plainRows(
                statement + " RETURNING \(SQLQueryString.columnList(names))", columns: names)
            try Self.recordChanges(action, rows: rows, idAt: returning.count)
            return rows
        }
        guard !returning.isEmpty else {
            try await database.sqlDatabase().raw(statement).run()
            return []
        }
        let names = returning.map(\.rawValue)
        return try await database.plainRows(
            statement + " RETURNING \(SQLQueryString.columnList(names))", columns: names)
    }

    private static func insertStatement(_ unstamped: [Values]) throws -> SQLQueryString? {
        let rows = try unstamped.map(stamped)
        guard let first = rows.first else { return nil }
        // A client knows a synced record by its uuid, and a tombstone names it by that.
        if let uuid = Table.sync?.uuid, rows.contains(where: { $0[uuid] == nil }) {
            throw WriteFailure.missingUUID(Table.name)
        }
        let columns = ordered(first.keys)
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
        return "INSERT INTO \(Table.quoted) (\(SQLQueryString.columnList(columns.map(\.rawValue)))) VALUES "
            + tuples.joined(separator: ", ")
    }

    /// Sets `values` (and `computed`, SQL expressions over the row's own columns) on the rows `condition`
    /// picks; returns how many it changed.
    @discardableResult
    func update(
        _ values: Values, computing computed: [Table.Column: SQLQueryString] = [:], where condition: SQLQueryString
    ) async throws -> Int {
        guard let statement = try Self.updateStatement(values, computed, condition) else { return 0 }
        if Table.sync != nil { return try await run(statement, returning: [], recording: .updated).count }
        defer { Self.forgetReads() }
        return try await database.plainRows(statement + #" RETURNING 1 AS "changed""#, columns: ["changed"]).count
    }

    /// `update(_:computing:where:)`, returning the columns `returning` of each row it changed.
    func update(
        _ values: Values, computing computed: [Table.Column: SQLQueryString] = [:], where condition: SQLQueryString,
        returning: [Table.Column]
    ) async throws -> [PlainRow] {
        guard let statement = try Self.updateStatement(values, computed, condition) else { return [] }
        return try await run(statement, returning: returning, recording: .updated)
    }

    private static func updateStatement(
        _ unstamped: Values, _ computed: [Table.Column: SQLQueryString], _ condition: SQLQueryString
    ) throws -> SQLQueryString? {
        guard !unstamped.isEmpty || !computed.isEmpty else { return nil }
        let values = try stamped(unstamped)
        var assignments: [SQLQueryString] = []
        for column in Table.Column.allCases {
            if let value = values[column] {
                assignments.append(#""\#(unsafeRaw: column.rawValue)" = \#(bind: value)"#)
            } else if let expression = computed[column] {
                assignments.append(#""\#(unsafeRaw: column.rawValue)" = "# + expression)
            }
        }
        guard !assignments.isEmpty else { return nil }
        return "UPDATE \(Table.quoted) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
    }

    /// Stamps the rows `condition` picks with the write's revision and changes nothing else: something
    /// their resource shows that is kept elsewhere changed, and clients that keep them must hear of it.
    @discardableResult
    func touch(where condition: SQLQueryString) async throws -> Int {
        guard let sync = Table.sync else { return 0 }
        return try await update([sync.revision: try Self.currentRevision().number], where: condition)
    }

    /// Updates the row `id` of `ownerID`; another account's row is as absent as a missing one.
    func update(
        _ id: Int, ownedBy ownerID: Int, set values: Values, computing computed: [Table.Column: SQLQueryString] = [:]
    ) async throws {
        try Self.requireWriteOf(ownerID)
        guard try await update(values, computing: computed, where: Table.ownedRow(id, ownedBy: ownerID)) > 0 else {
            throw AppError.notFound
        }
    }

    /// Deletes the rows `condition` picks; returns how many. In a synced table, each leaves a tombstone
    /// with the write's revision, so clients hear of it, and so do the synced rows that go with it.
    @discardableResult
    func delete(where condition: SQLQueryString) async throws -> Int {
        defer { Self.forgetReads() }
        guard let sync = Table.sync else {
            let rows = try await database.plainRows(
                "DELETE FROM \(Table.quoted) WHERE \(condition) RETURNING 1 AS \"deleted\"", columns: ["deleted"])
            return rows.count
        }
        let revision = try Self.currentRevision()
        for dependent in sync.dependents {
            try await dependent.delete(#"SELECT "id" FROM \#(Table.quoted) WHERE "# + condition, database)
        }
        let names =
            [SharedColumn.id.rawValue] + (sync.uuid.map { [$0.rawValue] } ?? [])
            + (sync.parent.map { [$0.rawValue] } ?? [])
        let audited = names.count
        let deleted = try await database.plainRows(
            """
            DELETE FROM \(Table.quoted) WHERE \(condition) \
            RETURNING \(SQLQueryString.columnList(names + Self.auditColumns))
            """, columns: names + Self.auditColumns)
        try Self.recordChanges(.deleted, rows: deleted, idAt: audited)
        var gone: [SyncTombstonesTable.Gone] = []
        for row in deleted {
            guard let id = try row.integer(0) else { throw WriteFailure.noRowReturned(Table.name) }
            let uuid = sync.uuid == nil ? nil : try row.uuid(1)
            let parent = sync.parent == nil ? nil : try row.integer(names.count - 1)
            gone.append(.init(id: id, uuid: uuid, parentID: parent))
        }
        try await SyncTombstonesTable.record(gone, type: sync.type, revision: revision, on: database)
        return deleted.count
    }

    /// Deletes the rows `condition` picks from a table clients keep no copy of, and returns `returning` of
    /// each: a one-time secret is read and spent in one statement, so two requests cannot both spend it.
    func delete(where condition: SQLQueryString, returning: [Table.Column]) async throws -> [PlainRow] {
        // A synced table's deletions leave tombstones: they go through `delete(where:)`.
        guard Table.sync == nil else { throw WriteFailure.unrevisionedWrite(Table.name) }
        defer { Self.forgetReads() }
        let names = returning.map(\.rawValue)
        return try await database.plainRows(
            "DELETE FROM \(Table.quoted) WHERE \(condition) RETURNING \(SQLQueryString.columnList(names))",
            columns: names)
    }

    /// Deletes the row `id` of `ownerID`; another account's row is as absent as a missing one.
    func delete(_ id: Int, ownedBy ownerID: Int) async throws {
        try Self.requireWriteOf(ownerID)
        guard try await delete(where: Table.ownedRow(id, ownedBy: ownerID)) > 0 else { throw AppError.notFound }
    }

    /// The columns a synced row's audit entry needs: its id, and the contact it is about when the table
    /// has one (a contact is about itself).
    private static var auditColumns: [String] {
        guard Table.sync?.type != "contact", let contact = Table.Column(rawValue: SharedColumn.contact.rawValue)
        else { return [SharedColumn.id.rawValue] }
        return [SharedColumn.id.rawValue, contact.rawValue]
    }

    /// Notes the rows a write changed for the account's audit log; their id (and contact) start at `idAt`.
    private static func recordChanges(_ action: AuditAction, rows: [PlainRow], idAt first: Int) throws {
        guard let sync = Table.sync, let current = WriteRevision.current, !rows.isEmpty else { return }
        let isContact = sync.type == "contact"
        let hasContact = auditColumns.count > 1
        current.changes.record(
            try rows.map { row in
                let id = try row.requiredInteger(first)
                return TransactionChanges.Change(
                    type: sync.type, action: action, id: id,
                    contactID: isContact ? id : hasContact ? try row.integer(first + 1) : nil)
            })
    }

    /// What the transaction has read of the table no longer holds once it writes there.
    private static func forgetReads() {
        WriteRevision.current?.reads.forget(Table.self)
    }

    /// `values` with the revision of the write in progress, for a synced table.
    private static func stamped(_ values: Values) throws -> Values {
        guard let sync = Table.sync else { return values }
        var stamped = values
        stamped[sync.revision] = try currentRevision().number
        return stamped
    }

    /// The revision of the write in progress. A synced table is written only inside
    /// `Database.write(ownedBy:at:)`: a change without a revision is one no client would ever hear of.
    private static func currentRevision() throws -> WriteRevision {
        guard let revision = WriteRevision.current else { throw WriteFailure.unrevisionedWrite(Table.name) }
        return revision
    }

    /// In a synced table, a row of `ownerID` is written only in `ownerID`'s own write.
    private static func requireWriteOf(_ ownerID: Int) throws {
        guard Table.sync != nil else { return }
        guard try currentRevision().ownerID == ownerID else { throw WriteFailure.crossAccountWrite }
    }

    private static func ordered(_ columns: some Collection<Table.Column>) -> [Table.Column] {
        let given = Set(columns)
        return Table.Column.allCases.filter(given.contains)
    }

}

enum WriteFailure: Error, CustomStringConvertible {
    case noRowReturned(String)
    case unevenRows(String)
    /// A write of one account inside another's: one transaction takes one account's revision.
    case crossAccountWrite
    /// A write of a synced table outside `Database.write(ownedBy:at:)`.
    case unrevisionedWrite(String)
    /// A row inserted into a synced table without its uuid.
    case missingUUID(String)

    var description: String {
        switch self {
        case .noRowReturned(let table): "an insert into \(table) returned no row"
        case .unevenRows(let table): "the rows inserted into \(table) together do not give the same columns"
        case .crossAccountWrite: "a write of one account was made inside another account's"
        case .unrevisionedWrite(let table): "\(table) was written outside a write that takes a revision"
        case .missingUUID(let table): "a row was inserted into \(table) without its uuid"
        }
    }
}
