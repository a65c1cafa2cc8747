extension OfflinePages {
    static let reminder = onContactPage(SyncedType.reminder.name, alsoOn: [SitePaths.reminders])
}
