import FluentKit
import Foundation
import LocifyCore
import SQLKit

/// The last to-do a CalDAV client wrote for each task, as it wrote it, under the file name it chose: a
/// phone's to-do carries a due date, a priority, alarms and more Locify does not model, and the to-do
/// served back is Locify's values merged into it, so a round trip loses none of them.
enum DAVTasksTable: StoredTable {
    static let name = "dav_tasks"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// Null once the task is deleted: the row stays, so a sync can tell the client the file it knows is gone.
        case task = "task_id"
        case taskUUID = "task_uuid"
        /// The object's file name in the Tasks calendar; a task without a row here is at `<its uuid>.ics`.
        case fileName = "file_name"
        case object
        /// The to-do's own UID, served back instead of Locify's: the client knows it by it.
        case uid
        case updatedAt = "updated_at"
    }
}

extension DAVTasksTable {
    /// A task's to-do as its client last wrote it.
    struct Kept: Sendable {
        let fileName: String
        let object: String
        let uid: String
    }

    /// The kept to-dos of these tasks, by task; one query.
    static func kept(ofTasks ids: [Int], ownedBy ownerID: Int, on database: any Database) async throws -> [Int: Kept] {
        guard !ids.isEmpty else { return [:] }
        var kept: [Int: Kept] = [:]
        let columns = selection([.task, .fileName, .object, .uid])
        for row in try await database.plainRows(
            """
            SELECT \(columns.list) FROM "dav_tasks" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, of: name, idColumn: "task_id"))
            """, columns: columns.names)
        {
            kept[try row.requiredInteger(0)] = Kept(
                fileName: try row.requiredText(1), object: try row.requiredText(2), uid: try row.requiredText(3))
        }
        return kept
    }

    /// Keeps `object` as the one its client wrote for `task`, at `fileName`.
    static func keep(
        _ object: String, uid: String, fileName: String, for task: ToDo, on database: any Database, now: Date
    ) async throws {
        let writer = TableWriter(Self.self, on: database)
        try await writer.delete(
            where:
                #""user_id" = \#(bind: task.ownerID) AND ("file_name" = \#(bind: fileName) OR "task_id" = \#(bind: task.id))"#
        )
        try await writer.insert([
            [
                .owner: task.ownerID, .task: task.id, .taskUUID: task.uuid, .fileName: fileName, .object: object,
                .uid: uid, .updatedAt: now,
            ]
        ])
    }
}
