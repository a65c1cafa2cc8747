import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The journal of one owner, in the shape of `NoteService`: owner-scoped queries, Core values in and out.
struct JournalService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = JournalEntriesTable.entryColumns

    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([JournalEntry], PageWindow) {
        try await database.ownedChildPage(
            table: JournalEntriesTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: nil,
            sort: sort, page: page, read: JournalEntriesTable.entry(from:))
    }

    func entry(_ id: Int) async throws -> JournalEntry {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: JournalEntriesTable.self, selecting: Self.columns,
            read: JournalEntriesTable.entry(from:))
    }

    func create(_ draft: JournalEntryDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> JournalEntry
    {
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        try await database.requireNewRecord(uuid, in: JournalEntriesTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        var values = JournalEntriesTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .createdAt: now]) { $1 }
        let id = try await database.write(JournalEntriesTable.self, ownedBy: ownerID, at: now) { [values] entries in
            try await entries.insert(values)
        }
        return JournalEntry(id: id, uuid: uuid, ownerID: ownerID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored entry: `change` gets it as a draft and returns the new one.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (JournalEntryDraft) -> JournalEntryDraft)
        async throws -> JournalEntry
    {
        let stored = try await entry(id)
        let draft = change(JournalEntryDraft(stored.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        let values = JournalEntriesTable.values(of: fields, now: now)
        try await database.write(JournalEntriesTable.self, ownedBy: ownerID, at: now) { [ownerID, values] entries in
            try await entries.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(JournalEntriesTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] entries in
            try await entries.delete(id, ownedBy: ownerID)
        }
    }
}
