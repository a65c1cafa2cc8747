extension OfflinePages {
    /// Addresses show on their contact's page and as pins on the map; each one's edit form is kept too
    /// (`{parent}` its contact).
    static let address = onContactPage(
        SyncedType.address.name, forms: [AddressPaths.edit.template("{parent}", "{id}")], alsoOn: [SitePaths.map])
}
