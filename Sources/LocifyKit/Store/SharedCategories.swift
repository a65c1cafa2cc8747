import Foundation
import GRDB
import LocifyAPI
import LocifyCore

/// A category another account shares with this one, as the store keeps it.
public struct StoredSharedCategory: Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var ownerName: String
    /// Whether this account may add, change and delete its places (online).
    public var canEdit: Bool
    public var placesCount: Int
}

extension LocifyStore {
    /// The categories shared with the account, by name.
    public func sharedCategories() throws -> [StoredSharedCategory] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, data, (SELECT COUNT(*) FROM shared_record AS r
                        WHERE r.category_id = shared_category.id AND r.type = 'place') AS places
                    FROM shared_category ORDER BY sort_key, id
                    """
            ).compactMap { row in
                guard let json = try? JSONValue(parsing: row["data"] as Data) else { return nil }
                return StoredSharedCategory(
                    id: row["id"], name: json["name"]?.string ?? "", ownerName: json["owner"]?["name"]?.string ?? "",
                    canEdit: json["can_edit"]?.bool ?? false, placesCount: row["places"])
            }
        }
    }

    /// The places of a category shared with the account, by name.
    public func sharedPlaces(inCategory categoryID: Int) throws -> [StoredPlace] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, uuid, revision, data FROM shared_record
                    WHERE category_id = ? AND type = 'place' ORDER BY sort_key, uuid
                    """, arguments: [categoryID]
            ).compactMap { row in
                guard let json = try? JSONValue(parsing: row["data"] as Data) else { return nil }
                return StoredPlace(
                    state: RecordState(id: row["id"], uuid: row["uuid"], revision: row["revision"], isWaiting: false),
                    json: json)
            }
        }
    }

    /// The comments on a place of a shared category, oldest first, as the server sent them.
    public func sharedComments(onPlace placeID: Int) throws -> [JSONValue] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT data FROM shared_record WHERE type = 'place_comment' AND parent_id = ?
                    ORDER BY sort_key, uuid
                    """, arguments: [placeID]
            ).compactMap { try? JSONValue(parsing: $0) }
        }
    }

    func sharedCursor(of categoryID: Int) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT cursor FROM shared_category WHERE id = ?", arguments: [categoryID])
        }
    }

    /// Keeps the categories the server lists as shared with the account, and forgets the others with
    /// their records (revoked or left).
    func keepSharedCategories(_ categories: [SharedCategoryResource]) throws {
        let encoder = JSONEncoder()
        try write { db in
            for category in categories {
                try db.execute(
                    sql: """
                        INSERT INTO shared_category (id, sort_key, data) VALUES (?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET sort_key = excluded.sort_key, data = excluded.data
                        """, arguments: [category.id, category.name.lowercased(), try encoder.encode(category)])
            }
            // None listed forgets them all: `NOT IN (NULL)` would keep everything.
            let kept = categories.map(\.id)
            let placeholders = Array(repeating: "?", count: kept.count).joined(separator: ", ")
            let arguments = StatementArguments(kept) ?? []
            try db.execute(
                sql: "DELETE FROM shared_record WHERE \(kept.isEmpty ? "1" : "category_id NOT IN (\(placeholders))")",
                arguments: arguments)
            try db.execute(
                sql: "DELETE FROM shared_category WHERE \(kept.isEmpty ? "1" : "id NOT IN (\(placeholders))")",
                arguments: arguments)
        }
        announce(["shared_category"])
    }

    /// Applies one page of a shared category's feed and keeps its cursor, in one transaction; the last
    /// page's `present` removes what the category no longer holds.
    func applyShared(_ page: SharedPage, to categoryID: Int) throws {
        try write { db in
            for change in page.changes {
                let json = change.data
                let sortKey =
                    change.type == "place_comment"
                    ? json["created_at"]?.string : (json["name"]?.string ?? json["body"]?.string)?.lowercased()
                try db.execute(
                    sql: """
                        INSERT INTO shared_record (category_id, type, uuid, id, revision, sort_key, parent_id, data)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (category_id, type, uuid) DO UPDATE SET id = excluded.id,
                            revision = excluded.revision, sort_key = excluded.sort_key, parent_id = excluded.parent_id,
                            data = excluded.data
                        """,
                    arguments: [
                        categoryID, change.type, change.uuid, change.id, change.revision, sortKey,
                        json["place_id"]?.int, json.data,
                    ])
            }
            if let present = page.present {
                for (type, uuids) in present {
                    let kept = try String.fetchAll(
                        db, sql: "SELECT uuid FROM shared_record WHERE category_id = ? AND type = ?",
                        arguments: [categoryID, type])
                    for uuid in kept where !uuids.contains(uuid) {
                        try db.execute(
                            sql: "DELETE FROM shared_record WHERE category_id = ? AND type = ? AND uuid = ?",
                            arguments: [categoryID, type, uuid])
                    }
                }
            }
            try db.execute(
                sql: "UPDATE shared_category SET cursor = ? WHERE id = ?", arguments: [page.cursor, categoryID])
        }
        announce(["shared_category"])
    }

    /// Forgets a category no longer shared with the account, and its records.
    func forgetSharedCategory(_ categoryID: Int) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM shared_record WHERE category_id = ?", arguments: [categoryID])
            try db.execute(sql: "DELETE FROM shared_category WHERE id = ?", arguments: [categoryID])
        }
        announce(["shared_category"])
    }
}
