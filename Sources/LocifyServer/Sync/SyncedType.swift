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

    init<Table: StoredTable>(
        _ table: Table.Type, records: @escaping @Sendable (Request, [Int]) async throws -> [Int: SyncRecord]
    ) {
        name = Table.sync?.type ?? Table.name
        self.table = Table.name
        self.records = records
    }

    /// Pairs each resource with its id, for `records`.
    static func byID<Resource>(_ resources: [Resource], id: (Resource) -> Int, as record: (Resource) -> SyncRecord)
        -> [Int: SyncRecord]
    {
        Dictionary(resources.map { (id($0), record($0)) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Request {
    /// The signed-in account's rows `ids` of `table`, for a `SyncedType`'s records.
    func ownedRows<Table: StoredTable, Value>(
        _ ids: [Int], in table: Table.Type, selecting selection: ColumnSelection<Table.Column>,
        read: (PlainRow) throws -> Value
    ) async throws -> [Value] {
        try await db.ownedRows(ids, ownedBy: try requireUser().id, in: table, selecting: selection, read: read)
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
