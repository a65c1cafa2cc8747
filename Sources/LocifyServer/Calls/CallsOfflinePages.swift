extension OfflinePages {
    static let call = onContactPage(SyncedType.call.name)
}
