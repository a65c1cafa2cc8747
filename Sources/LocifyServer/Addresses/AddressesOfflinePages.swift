extension OfflinePages {
    /// Addresses show on their contact's page and as pins on the map.
    static let address = onContactPage(SyncedType.address.name, alsoOn: [SitePaths.map])
}
