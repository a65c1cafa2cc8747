import FluentKit
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// How sync sees a table whose rows a client keeps a copy of: the name of their type on the wire
/// (Monica's `object`: `contact`, `address`, …), and the columns that carry a row's revision and its uuid.
struct SyncedColumns<Column: Sendable>: Sendable {
    let type: String
    let revision: Column
    /// Nil for a table whose rows have no uuid of their own yet; their tombstones carry none.
    let uuid: Column?
    /// The synced rows of other tables that go with a row of this one (their foreign key cascades).
    let dependents: [SyncedDependent]
    /// The contact a row belongs to, for a type a contact's card shows (an address, a field, a tag's
    /// link): its tombstone keeps it, so CardDAV's sync tells that the card changed.
    let parent: Column?

    init(type: String, revision: Column, uuid: Column?, dependents: [SyncedDependent] = [], parent: Column? = nil) {
        self.type = type
        self.revision = revision
        self.uuid = uuid
        self.dependents = dependents
        self.parent = parent
    }
}

/// Rows of a synced table that the database would delete with their parent (`ON DELETE CASCADE`). The
/// writer deletes them first, through their own table's writer, so each leaves its tombstone in the same
/// revision as the parent's: a client that kept a contact's addresses hears that they are gone too.
struct SyncedDependent: Sendable {
    /// Deletes the dependents of the parents a query (`SELECT "id" FROM … WHERE …`) picks.
    let delete: @Sendable (_ parents: SQLQueryString, _ database: any Database) async throws -> Void

    /// The rows of `table` whose `column` names a deleted parent.
    init<Table: StoredTable>(_ table: Table.Type, by column: Table.Column) {
        delete = { parents, database in
            try await TableWriter(table, on: database).delete(
                where: #""\#(unsafeRaw: column.rawValue)" IN ("# + parents + ")")
        }
    }
}

/// The revision a write transaction took for its account. Every row the `TableWriter` writes in a
/// synced table carries it, and every row it deletes leaves a tombstone with it.
///
/// Taking it is one increment of the account's counter (`users.revision`) inside the transaction: the
/// row lock it takes orders the account's write transactions, so a reader that has seen revision N
/// never later sees a commit numbered below N (timestamps and plain sequences do not promise that).
struct WriteRevision: Sendable {
    let ownerID: Int
    let number: Int
    /// When the write happened, for the tombstones' retention.
    let at: Date
    /// The transaction's database: a nested write joins it instead of opening another.
    let database: any Database
    let reads = TransactionReads()
    /// What the transaction changed, for the account's audit log.
    let changes = TransactionChanges()

    @TaskLocal static var current: WriteRevision?
}

/// Answers a write transaction has read, kept for the rest of it: a push's hundred mutations ask the
/// same questions (the account's genders, whether a contact is the account's), and an answer holds until
/// the transaction writes the table it came from. `TableWriter` forgets a table's answers on each write
/// to it; a savepoint rolled back forgets them all.
final class TransactionReads: Sendable {
    private let answers = NIOLockedValueBox<[String: [Int: any Sendable]]>([:])

    /// What `read` answers of `table` for `key` (an id, or an owner's id for a question about all their
    /// rows): asked once in `ownerID`'s write transaction, and each time outside one.
    static func answer<Table: StoredTable, Value: Sendable>(
        of table: Table.Type, for key: Int, ownedBy ownerID: Int, read: () async throws -> Value
    ) async throws -> Value {
        guard let current = WriteRevision.current, current.ownerID == ownerID else { return try await read() }
        if let known = current.reads.answers.withLockedValue({ $0[Table.name]?[key] }) as? Value { return known }
        let value = try await read()
        current.reads.remember(value, of: table, for: key)
        return value
    }

    func remember<Table: StoredTable>(_ value: some Sendable, of table: Table.Type, for key: Int) {
        answers.withLockedValue { $0[Table.name, default: [:]][key] = value }
    }

    func forget<Table: StoredTable>(_ table: Table.Type) {
        answers.withLockedValue { _ = $0.removeValue(forKey: Table.name) }
    }

    func forgetAll() {
        answers.withLockedValue { $0 = [:] }
    }
}

extension Database {
    /// Runs `body` in one transaction that has taken `ownerID`'s next revision; the writes `body` makes
    /// through `TableWriter` on the database it is given are stamped with it. Inside another write of
    /// the same account, `body` joins that one (one revision for one change a person made).
    func write<Result: Sendable>(
        ownedBy ownerID: Int, at now: Date, _ body: @escaping @Sendable (any Database) async throws -> Result
    ) async throws -> Result {
        if let current = WriteRevision.current {
            guard current.ownerID == ownerID else { throw WriteFailure.crossAccountWrite }
            return try await body(current.database)
        }
        return try await transaction { database in
            let number = try await RevisionCounter.next(for: ownerID, on: database)
            let revision = WriteRevision(ownerID: ownerID, number: number, at: now, database: database)
            let result = try await WriteRevision.$current.withValue(revision) { try await body(database) }
            try await AuditLogTable.record(revision.changes.drain(), ownerID: ownerID, at: now, on: database)
            return result
        }
    }
}

extension Database {
    /// `write(ownedBy:at:)` for a body that writes one table: `database.write(NotesTable.self, ownedBy:
    /// ownerID, at: now) { notes in try await notes.insert(values) }`.
    func write<Table: StoredTable, Result: Sendable>(
        _ table: Table.Type, ownedBy ownerID: Int, at now: Date,
        _ body: @escaping @Sendable (TableWriter<Table>) async throws -> Result
    ) async throws -> Result {
        try await write(ownedBy: ownerID, at: now) { database in try await body(TableWriter(table, on: database)) }
    }
}

/// Each account's revision counter, kept on its `users` row.
enum RevisionCounter {
    /// Takes the next revision; the row stays locked until the transaction ends.
    static func next(for ownerID: Int, on database: any Database) async throws -> Int {
        let rows = try await TableWriter(UsersTable.self, on: database).update(
            [:], computing: [.revision: #""revision" + 1"#], where: #""id" = \#(bind: ownerID)"#,
            returning: [.revision])
        guard let number = try rows.first?.integer(0) else { throw AppError.notFound }
        return number
    }
}

/// Where an account's revision log stands: its latest revision, and its horizon (the newest revision
/// whose deletions were let go; a client that saw less must download everything again).
struct RevisionLogState: Sendable, Equatable {
    let latest: Int
    let horizon: Int

    static func read(for ownerID: Int, on database: any Database) async throws -> RevisionLogState {
        let rows = try await database.plainRows(
            #"SELECT "revision", "sync_horizon" FROM "users" WHERE "id" = \#(bind: ownerID)"#,
            columns: ["revision", "sync_horizon"])
        return RevisionLogState(latest: try rows.first?.integer(0) ?? 0, horizon: try rows.first?.integer(1) ?? 0)
    }
}
