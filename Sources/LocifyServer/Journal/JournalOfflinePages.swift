extension OfflinePages {
    /// An entry shows on the journal page alone (its newest hundred).
    static let journalEntry = OfflinePages(type: SyncedType.journalEntry.name) { _ in [JournalPaths.page.path] }
}
