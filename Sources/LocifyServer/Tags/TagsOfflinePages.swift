extension OfflinePages {
    /// Tags show on their contacts' pages and as the contact list's filter.
    static let tag = onEveryContactPage(SyncedType.tag.name, alsoInLists: true)
    static let contactTag = onContactPage(SyncedType.contactTag.name, key: ["contact_id"])
}
