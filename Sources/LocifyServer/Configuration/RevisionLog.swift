import FluentKit
import Foundation
import SQLKit

/// How sync sees a table whose rows a client keeps a copy of: the name of their type on the wire
/// (Monica's `object`: `contact`, `address`, …), and the columns that carry a row's revision and its uuid.
struct SyncedColumns<Column: Sendable>: Sendable {
    let type: String
    let revision: Column
    /// Nil for a table whose rows have no uuid of their own yet; their tombstones carry none.
    let uuid: Column?
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

    @TaskLocal static var current: WriteRevision?
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
            return try await WriteRevision.$current.withValue(revision) { try await body(database) }
        }
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
