import LocifyAPI
import Vapor

extension SyncedType {
    static let note = SyncedType(NotesTable.self, writes: .note, restore: .note) { request, ids in
        let notes = try await request.ownedRows(
            ids, in: NotesTable.self, selecting: NotesTable.noteColumns,
            read: NotesTable.note(from:))
        return byID(try await request.noteResources(notes), id: \.id, as: SyncRecord.note)
    }

    static let task = SyncedType(TasksTable.self, writes: .task, restore: .task) { request, ids in
        let tasks = try await request.ownedRows(
            ids, in: TasksTable.self, selecting: TasksTable.taskColumns,
            read: TasksTable.task(from:))
        return byID(try await request.taskResources(tasks), id: \.id, as: SyncRecord.task)
    }
}

extension SyncWrites {
    static let note = SyncWrites(
        reading: NoteInput.self, fields: ["contact_id", "body", "is_favorited"], references: [.contact],
        create: { request, input, uuid in
            try await request.notes().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.notes().update(id, contactID: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id, _ in try await request.notes().delete(id) })

    static let task = SyncWrites(
        reading: TaskInput.self, fields: ["contact_id", "title", "description", "completed"], references: [.contact],
        create: { request, input, uuid in
            try await request.tasks().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.tasks().update(id, contactID: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id, _ in try await request.tasks().delete(id) })
}

extension ArchiveRestore {
    static let note = ArchiveRestore(writes: .note) { record, ids in
        try record.fields(["body", "is_favorited"], references: ["contact_id": "contact"], ids: ids)
    }

    static let task = ArchiveRestore(writes: .task) { record, ids in
        try record.fields(["title", "description", "completed"], references: ["contact_id": "contact"], ids: ids)
    }
}
