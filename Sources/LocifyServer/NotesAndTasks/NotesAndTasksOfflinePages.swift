extension OfflinePages {
    static let note = onContactPage(SyncedType.note.name)
    /// A task without a contact shows on the Tasks page only.
    static let task = onContactPage(SyncedType.task.name, alsoOn: [SitePaths.tasks])
}
