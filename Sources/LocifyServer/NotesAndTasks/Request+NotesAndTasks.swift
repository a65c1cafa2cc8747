import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's tasks.
    func tasks() throws -> TaskService {
        TaskService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a task input (see `jsonInput`).
    func taskInput() throws -> TaskInput {
        try jsonInput(TaskInput.self, empty: TaskInput(draft: ToDoDraft(), presentKeys: []))
    }

    func taskResource(_ task: ToDo) async throws -> TaskResource {
        try await taskResources([task])[0]
    }

    /// Each task with its contact (if it has one), the contacts read in one query.
    func taskResources(_ tasks: [ToDo]) async throws -> [TaskResource] {
        try await resources(tasks, optionalContactOf: \.contactID) { TaskResource($0, contact: $1) }
    }
}

extension Request {
    /// The signed-in user's notes.
    func notes() throws -> NoteService {
        NoteService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a note input (see `jsonInput`).
    func noteInput() throws -> NoteInput {
        try jsonInput(NoteInput.self, empty: NoteInput(draft: NoteDraft(), presentKeys: []))
    }

    func noteResource(_ note: Note) async throws -> NoteResource {
        try await noteResources([note])[0]
    }

    /// Each note with its contact, the contacts read in one query.
    func noteResources(_ notes: [Note]) async throws -> [NoteResource] {
        let base = baseURL
        return try await resources(notes, contactOf: \.contactID) { note, contact in
            NoteResource(note, url: base + NotePaths.apiNote(note.id).path, contact: contact)
        }
    }
}
