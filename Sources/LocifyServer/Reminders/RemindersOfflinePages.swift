extension OfflinePages {
    /// A reminder shows on its contact's page and the timeline; its edit form is kept too.
    static let reminder = onContactPage(
        SyncedType.reminder.name, forms: [ReminderPaths.edit.template("{id}")], alsoOn: [SitePaths.reminders])
}
