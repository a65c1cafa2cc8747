import FluentKit
import Foundation
import LocifyAPI
import SQLKit

/// Reads an account's revision log: the records changed and deleted after a cursor, in the feed's order
/// (`SyncCursor`), a page at a time.
///
/// A pull first reads the account's latest revision and answers nothing newer. Every revision up to it
/// has committed (the counter's row lock hands out revisions in commit order, and a revision becomes
/// visible with the rows it stamped), so a change committed while the pull runs is never skipped: it has a
/// newer revision, and the next pull, from the cursor this one answers, finds it.
struct SyncFeed {
    /// A change or a deletion in the log.
    struct Entry: Sendable, Equatable {
        let type: String
        let position: Int
        /// The record's id (for a deletion, the deleted record's).
        let id: Int
        /// Orders entries of one type and revision: the record's id, or the tombstone's.
        let sequence: Int
        let uuid: UUID?
        let revision: Int

        var cursor: SyncCursor { SyncCursor(revision: revision, position: position, id: sequence) }
    }

    struct Page: Sendable {
        let changes: [Entry]
        let deletions: [Entry]
        let next: SyncCursor
        let hasMore: Bool

        /// The page's changes with their records, by type and id; a record deleted since its revision was
        /// read is left out (its deletion comes next time).
        func changeResources(_ records: [String: [Int: SyncRecord]]) -> [SyncChangeResource] {
            changes.compactMap { entry in
                guard let data = records[entry.type]?[entry.id], let uuid = entry.uuid else { return nil }
                return SyncChangeResource(uuid: uuid, id: entry.id, revision: entry.revision, data: data)
            }
        }
    }

    /// The cursor is older than the account's horizon (its tombstones were let go): the client must
    /// download everything again.
    struct CursorTooOld: Error {
        let horizon: Int
    }

    /// The cursor is past the account's latest revision (the data was restored from an older backup, or
    /// the cursor is another server's): what the client holds and what is here disagree, so it must
    /// download everything again.
    struct CursorAhead: Error {
        let latest: Int
    }

    let database: any Database
    let ownerID: Int
    /// The rows of each type a feed keeps to (a shared category's places and what belongs to them), as a
    /// condition on the type's table; nil for the whole log. A scoped feed reads no tombstones: what is
    /// gone from it is told by what is left (`SharedCategorySync`), for a row can leave the scope (a place
    /// moved to another category) without being deleted, and another's deletions are not the reader's.
    var scope: [String: SQLQueryString]? = nil

    func page(after cursor: SyncCursor, limit: Int, types: [SyncedType]) async throws -> Page {
        let state = try await RevisionLogState.read(for: ownerID, on: database)
        let (latest, horizon) = (state.latest, state.horizon)
        if cursor.revision >= 0 {
            let beforeHorizon =
                horizon > 0
                && (cursor.revision < horizon
                    || (cursor.revision == horizon && cursor.position != SyncCursor.afterRevision))
            if cursor.revision > latest { throw CursorAhead(latest: latest) }
            if beforeHorizon { throw CursorTooOld(horizon: horizon) }
        }
        // A client that has everything (a phone asking every few minutes) is told so without the union
        // below: nothing can come after the latest revision.
        if cursor == .after(latest) { return Page(changes: [], deletions: [], next: cursor, hasMore: false) }
        // Each type's first rows after the cursor, and the deletions', in one statement: a pull asks
        // one question of the database instead of one a type (fourteen round trips to PostgreSQL).
        var branches: [SQLQueryString] = []
        for type in types {
            let position = SyncRecord.types.firstIndex(of: type.name) ?? SyncRecord.types.count
            let kept: SQLQueryString = scope.map { $0[type.name] ?? "FALSE" } ?? "TRUE"
            branches.append(
                """
                SELECT \(unsafeRaw: String(position)) AS "position", '\(unsafeRaw: type.name)' AS "type", \
                "id" AS "row_id", "id" AS "sequence", "uuid", "revision" FROM "\(unsafeRaw: type.table)" \
                WHERE "user_id" = \(bind: ownerID) AND \(kept) AND \(Self.after(cursor, at: position, sequence: "id")) \
                AND "revision" <= \(bind: latest) ORDER BY "revision", "id" LIMIT \(unsafeRaw: String(limit + 1))
                """)
        }
        if !types.isEmpty, scope == nil {
            let names = SQLQueryString(types.map { "'\($0.name)'" }.joined(separator: ", "))
            branches.append(
                """
                SELECT \(unsafeRaw: String(SyncCursor.deletions)) AS "position", "type", "row_id", \
                "id" AS "sequence", "uuid", "revision" FROM "sync_tombstones" \
                WHERE "user_id" = \(bind: ownerID) AND "type" IN (\(names)) \
                AND \(Self.after(cursor, at: SyncCursor.deletions, sequence: "id")) \
                AND "revision" <= \(bind: latest) ORDER BY "revision", "id" LIMIT \(unsafeRaw: String(limit + 1))
                """)
        }
        // In the feed's order, the page's rows and one more to tell whether there are more.
        var candidates: [Entry] = []
        if !branches.isEmpty {
            // Each branch is a subquery of its own: SQLite orders and limits only a whole compound SELECT.
            // The whole is ordered and limited too: PostgreSQL then merges the branches' ordered rows and
            // stops at the page's end, where it read and sent each branch's every row up to its limit
            // (1,500 rows for a page of 500 in a download of contacts, addresses and places).
            let union =
                branches.enumerated().map { index, branch in
                    #"SELECT * FROM ("# + branch + #") AS "branch\#(unsafeRaw: String(index))""#
                }.joined(separator: " UNION ALL ")
                + #" ORDER BY "revision", "position", "sequence" LIMIT \#(unsafeRaw: String(limit + 1))"#
            // Planning the fourteen branches took PostgreSQL longer than reading them.
            let rows = try await database.preparedRows(
                union, columns: ["position", "type", "row_id", "sequence", "uuid", "revision"])
            candidates = try rows.map { row in
                Entry(
                    type: try row.requiredText(1), position: try row.requiredInteger(0), id: try row.requiredInteger(2),
                    sequence: try row.requiredInteger(3), uuid: try row.uuid(4), revision: try row.requiredInteger(5))
            }
        }
        let taken = candidates.prefix(limit)
        let hasMore = candidates.count > limit
        return Page(
            changes: taken.filter { $0.position != SyncCursor.deletions },
            deletions: taken.filter { $0.position == SyncCursor.deletions },
            next: hasMore ? (taken.last?.cursor ?? cursor) : .after(latest), hasMore: hasMore)
    }

    /// The rows of one type (at `position` in a revision's order) that come after `cursor`.
    private static func after(_ cursor: SyncCursor, at position: Int, sequence: String) -> SQLQueryString {
        if position > cursor.position {
            return #""revision" >= \#(bind: cursor.revision)"#
        }
        if position < cursor.position {
            return #""revision" > \#(bind: cursor.revision)"#
        }
        // The first bound is implied by the second, but only it is a range the revision index can start
        // from: without it, each page of a download read the account's rows from its first revision.
        return """
            "revision" >= \(bind: cursor.revision) AND ("revision" > \(bind: cursor.revision) \
            OR ("revision" = \(bind: cursor.revision) AND "\(unsafeRaw: sequence)" > \(bind: cursor.id)))
            """
    }
}
