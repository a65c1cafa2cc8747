import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's journal.
    func journal() throws -> JournalService {
        JournalService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a journal entry input (see `jsonInput`).
    func journalEntryInput() throws -> JournalEntryInput {
        try jsonInput(JournalEntryInput.self, empty: JournalEntryInput(draft: JournalEntryDraft(), presentKeys: []))
    }

    func journalEntryResource(_ entry: JournalEntry) -> JournalEntryResource {
        JournalEntryResource(entry, url: baseURL + JournalPaths.apiEntry(entry.id).path)
    }
}
