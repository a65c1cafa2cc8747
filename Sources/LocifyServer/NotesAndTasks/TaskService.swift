import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Tasks of one owner, about one of their contacts or no one.
struct TaskService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TaskSortField.createdAt)
    private static let columns = TasksTable.taskColumns

    /// One page of the owner's tasks, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TaskSortField>, page: PageSelection) async throws -> ([ToDo], PageWindow)
    {
        try await database.ownedChildPage(
            table: TasksTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: TasksTable.task(from:))
    }

    /// A contact's tasks, open ones first, for its page.
    func tasks(ofContact contactID: Int) async throws -> [ToDo] {
        try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "tasks" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) \
            ORDER BY "is_completed", "created_at", "id"
            """, columns: Self.columns.names
        ).map(TasksTable.task(from:))
    }

    /// The owner's open tasks across contacts, oldest first, for the Tasks page.
    func openTasks() async throws -> [ToDo] {
        try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "tasks" \
            WHERE "user_id" = \(literal: ownerID) AND "is_completed" = \(SQLLiteral.boolean(false)) \
            ORDER BY "created_at", "id"
            """, columns: Self.columns.names
        ).map(TasksTable.task(from:))
    }

    /// Every task of the owner (done or not), or these of them by id, oldest first.
    func all(_ ids: [Int]? = nil) async throws -> [ToDo] {
        if let ids, ids.isEmpty { return [] }
        let picked = ids.map { SQLQueryString.owned(by: ownerID, ids: $0) } ?? #""user_id" = \#(literal: ownerID)"#
        return try await database.plainRows(
            #"SELECT \#(Self.columns.list) FROM "tasks" WHERE \#(picked) ORDER BY "created_at", "id""#,
            columns: Self.columns.names
        ).map(TasksTable.task(from:))
    }

    func task(_ id: Int) async throws -> ToDo {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: TasksTable.self, selecting: Self.columns, read: TasksTable.task(from:))
    }

    /// Creates a task, about one of the owner's contacts when `contactID` is given (another account's
    /// contact is not found).
    func create(contactID: Int?, _ draft: ToDoDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> ToDo
    {
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        try await database.requireNewRecord(uuid, in: TasksTable.self, ownedBy: ownerID)
        if let contactID { _ = try await database.requireContact(contactID, ownedBy: ownerID) }
        let now = dependencies.now()
        var values = TasksTable.values(of: fields, completedAt: nil, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(TasksTable.self, ownedBy: ownerID, at: now) { [values] tasks in
            try await tasks.insert(values)
        }
        return ToDo(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields,
            completedAt: Timestamp.since(nil, holding: fields.isCompleted, now: now), createdAt: now, updatedAt: now)
    }

    /// Changes a stored task: `change` gets it as a draft and returns the new one. Tasks never move to
    /// another contact: a `contactID` that is not the task's own makes it not found (as in Monica).
    func update(_ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (ToDoDraft) -> ToDoDraft)
        async throws -> ToDo
    {
        let stored = try await task(id)
        if let contactID, contactID != stored.contactID { throw AppError.notFound }
        let draft = change(ToDoDraft(stored.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        let values = TasksTable.values(of: fields, completedAt: stored.completedAt, now: now)
        try await database.write(TasksTable.self, ownedBy: ownerID, at: now) { [ownerID] tasks in
            try await tasks.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.completedAt = Timestamp.since(stored.completedAt, holding: fields.isCompleted, now: now)
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(TasksTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] tasks in
            try await tasks.delete(id, ownedBy: ownerID)
        }
    }
}
