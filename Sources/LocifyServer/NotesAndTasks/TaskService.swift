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

    /// One page of the owner's tasks, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TaskSortField>, page: PageSelection) async throws -> ([ToDo], PageWindow)
    {
        try await database.ownedChildPage(
            table: TaskModel.schema, columns: NotesAndTasksRows.taskColumns, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: NotesAndTasksRows.task(from:))
    }

    /// A contact's tasks, open ones first, for its page.
    func tasks(ofContact contactID: Int) async throws -> [ToDo] {
        try await database.plainRows(
            """
            SELECT \(NotesAndTasksRows.taskColumnList) FROM "tasks" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) \
            ORDER BY "is_completed", "created_at", "id"
            """, columns: NotesAndTasksRows.taskColumns
        ).map(NotesAndTasksRows.task(from:))
    }

    /// The owner's open tasks across contacts, oldest first, for the Tasks page.
    func openTasks() async throws -> [ToDo] {
        try await database.plainRows(
            """
            SELECT \(NotesAndTasksRows.taskColumnList) FROM "tasks" \
            WHERE "user_id" = \(literal: ownerID) AND "is_completed" = \(SQLLiteral.boolean(false)) \
            ORDER BY "created_at", "id"
            """, columns: NotesAndTasksRows.taskColumns
        ).map(NotesAndTasksRows.task(from:))
    }

    func task(_ id: Int) async throws -> ToDo {
        try await TaskModel.requireOwned(id, by: ownerID, on: database).value()
    }

    /// Creates a task, about one of the owner's contacts when `contactID` is given (another account's
    /// contact is not found).
    func create(contactID: Int?, _ draft: ToDoDraft, typeErrors: [FieldError] = []) async throws -> ToDo {
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        if let contactID { _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database) }
        let now = dependencies.now()
        let model = TaskModel(ownerID: ownerID, contactID: contactID, uuid: dependencies.newUUID(), now: now)
        model.apply(fields, now: now)
        try await model.save(on: database)
        return try model.value()
    }

    /// Changes a stored task: `change` gets it as a draft and returns the new one. Tasks never move to
    /// another contact: a `contactID` that is not the task's own makes it not found (as in Monica).
    func update(_ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (ToDoDraft) -> ToDoDraft)
        async throws -> ToDo
    {
        let model = try await TaskModel.requireOwned(id, by: ownerID, on: database)
        if let contactID, contactID != model.$contact.id { throw AppError.notFound }
        let draft = change(ToDoDraft(model.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        model.apply(fields, now: dependencies.now())
        try await model.save(on: database)
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        try await TaskModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
    }
}
