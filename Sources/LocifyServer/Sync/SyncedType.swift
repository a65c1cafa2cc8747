import FluentKit
import Foundation
import LocifyAPI
import Vapor

/// A type of record the sync feed carries: the table whose revisions it reads, and how to answer the
/// records as the type's own route does. Each feature declares its own
/// (`extension SyncedType { static let note = SyncedType(NotesTable.self) { request, ids in … } }`) and
/// `configure` registers them (`app.syncedTypes`), so this folder names no feature.
struct SyncedType: Sendable {
    /// The type on the wire (Monica's `object`): `contact`, `address`, …
    let name: String
    let table: String
    /// The signed-in account's records `ids` as their own route answers them, by id. A record deleted
    /// since the feed read its revision is left out: its tombstone comes in a later pull.
    let records: @Sendable (Request, [Int]) async throws -> [Int: SyncRecord]
    /// How a push changes records of the type; nil for a type clients only read (photos come as files).
    let writes: SyncWrites?
    /// Finds records by the uuids clients know them by.
    let locator: SyncLocator
    /// How the records leave in an account archive and are made again from one.
    let restore: ArchiveRestore
    /// Gives the record `id` of `ownerID` the times it had in an archive, inside the import's write.
    let keepTimes:
        @Sendable (_ database: any Database, _ ownerID: Int, _ id: Int, _ times: ArchivedTimes) async throws -> Void

    init<Table: StoredTable>(
        _ table: Table.Type, writes: SyncWrites? = nil, restore: ArchiveRestore,
        records: @escaping @Sendable (Request, [Int]) async throws -> [Int: SyncRecord]
    ) {
        name = Table.sync?.type ?? Table.name
        self.table = Table.name
        self.records = records
        self.writes = writes
        self.restore = restore
        locator = SyncLocator(table)
        keepTimes = { database, ownerID, id, times in
            var values: Table.Values = [:]
            for (name, date) in times.dates {
                if let column = Table.Column(rawValue: name) { values[column] = date }
            }
            guard !values.isEmpty else { return }
            try await TableWriter(Table.self, on: database).update(id, ownedBy: ownerID, set: values)
        }
    }

    /// Pairs each resource with its id, for `records`.
    static func byID<Resource>(_ resources: [Resource], id: (Resource) -> Int, as record: (Resource) -> SyncRecord)
        -> [Int: SyncRecord]
    {
        Dictionary(resources.map { (id($0), record($0)) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Where a uuid a client sent leads.
enum SyncLocation: Sendable, Equatable {
    /// The account's record, with the revision of its last change.
    case record(id: Int, revision: Int)
    /// A record of another account: to this one, as absent as `nowhere`, yet its uuid cannot be taken.
    case elsewhere
    case nowhere
}

/// Finds the records of one table by the uuids clients know them by.
struct SyncLocator: Sendable {
    let table: String
    private let revisionColumn: String?

    init<Table: StoredTable>(_ table: Table.Type) {
        self.table = Table.name
        revisionColumn = Table.sync?.revision.rawValue
    }

    /// Where each of `uuids` leads, in one query; a uuid no record has is `nowhere`.
    func find(_ uuids: Set<UUID>, ownedBy ownerID: Int, on database: any Database) async throws
        -> [UUID: SyncLocation]
    {
        var found = Dictionary(uniqueKeysWithValues: uuids.map { ($0, SyncLocation.nowhere) })
        guard let revisionColumn, !uuids.isEmpty else { return found }
        let rows = try await database.plainRows(
            """
            SELECT "uuid", "id", "user_id", "\(unsafeRaw: revisionColumn)" FROM "\(unsafeRaw: table)" \
            WHERE "uuid" IN (\(binds: uuids.sorted { $0.uuidString < $1.uuidString }))
            """, columns: ["uuid", "id", "user_id", "revision"])
        for row in rows {
            found[try row.requiredUUID(0)] =
                try row.requiredInteger(2) == ownerID
                ? .record(id: try row.requiredInteger(1), revision: try row.requiredInteger(3)) : .elsewhere
        }
        return found
    }
}

extension Request {
    /// The signed-in account's rows `ids` of `table`, for a `SyncedType`'s records.
    func ownedRows<Table: StoredTable, Value>(
        _ ids: [Int], in table: Table.Type, selecting selection: ColumnSelection<Table.Column>,
        read: (PlainRow) throws -> Value
    ) async throws -> [Value] {
        try await database.ownedRows(ids, ownedBy: try requireUser().id, in: table, selecting: selection, read: read)
    }
}

extension Application {
    private struct SyncedTypesKey: StorageKey {
        typealias Value = [SyncedType]
    }

    /// The types the sync feed carries (registered in `configure`).
    var syncedTypes: [SyncedType] {
        get { storage[SyncedTypesKey.self] ?? [] }
        set { storage[SyncedTypesKey.self] = newValue }
    }
}
