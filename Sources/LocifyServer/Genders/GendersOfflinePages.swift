extension OfflinePages {
    static let gender = onEveryContactPage(SyncedType.gender.name)
}
