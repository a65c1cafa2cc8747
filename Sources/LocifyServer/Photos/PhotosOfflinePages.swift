extension OfflinePages {
    static let photo = onContactPage(SyncedType.photo.name)
}
