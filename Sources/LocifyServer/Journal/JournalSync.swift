import LocifyAPI
import Vapor

extension SyncedType {
    static let journalEntry = SyncedType(JournalEntriesTable.self, writes: .journalEntry, restore: .journalEntry) {
        request, ids in
        let entries = try await request.ownedRows(
            ids, in: JournalEntriesTable.self, selecting: JournalEntriesTable.entryColumns,
            read: JournalEntriesTable.entry(from:))
        return byID(entries.map(request.journalEntryResource), id: \.id, as: SyncRecord.journalEntry)
    }
}

extension SyncWrites {
    static let journalEntry = SyncWrites(
        reading: JournalEntryInput.self, fields: ["title", "post"], references: [],
        create: { request, input, uuid in
            try await request.journal().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.journal().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.journal().delete(id) })
}

extension ArchiveRestore {
    static let journalEntry = ArchiveRestore(writes: .journalEntry) { record, ids in
        try record.fields(["title", "post"], ids: ids)
    }
}
