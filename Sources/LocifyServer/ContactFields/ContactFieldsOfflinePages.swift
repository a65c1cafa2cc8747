extension OfflinePages {
    static let contactField = onContactPage(SyncedType.contactField.name)
    static let contactFieldType = onEveryContactPage(SyncedType.contactFieldType.name)
}
