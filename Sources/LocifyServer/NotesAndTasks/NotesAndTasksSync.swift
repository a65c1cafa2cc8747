import LocifyAPI
import Vapor

extension SyncedType {
    static let note = SyncedType(NotesTable.self) { request, ids in
        let notes = try await request.ownedRows(
            ids, in: NotesTable.self, selecting: NotesTable.noteColumns,
            read: NotesTable.note(from:))
        return byID(try await request.noteResources(notes), id: \.id, as: SyncRecord.note)
    }

    static let task = SyncedType(TasksTable.self) { request, ids in
        let tasks = try await request.ownedRows(
            ids, in: TasksTable.self, selecting: TasksTable.taskColumns,
            read: TasksTable.task(from:))
        return byID(try await request.taskResources(tasks), id: \.id, as: SyncRecord.task)
    }
}
