extension PathParameter {
    static let addressID = PathParameter("addressID")
}

/// A contact's addresses: pages, vCards and API resources.
enum AddressPaths {
    static let list = ContactPaths.contact.appending("addresses")
    static let new = list.appending("new")
    static let address = list.appending(.addressID)
    static let edit = address.appending("edit")
    static let delete = address.appending("delete")
    static let vcard = address.appending("vcard")

    static let api = SitePaths.apiAddresses
    static let apiAddress = api.appending(.addressID)
    static let apiContactAddresses = ContactPaths.apiContact.appending("addresses")
    static let apiVCard = apiContactAddresses.appending(.addressID).appending("vcard")
    static let apiCountries = SitePaths.apiCountries
}
