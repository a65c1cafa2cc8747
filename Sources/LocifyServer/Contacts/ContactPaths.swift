extension PathParameter {
    static let contactID = PathParameter("contactID")
}

/// A contact's pages and API resources; the features' own paths under a contact start from `contact`
/// and `apiContact`.
enum ContactPaths {
    static let list = SitePaths.contacts
    static let new = list.appending("new")
    static let contact = list.appending(.contactID)
    static let edit = contact.appending("edit")
    static let delete = contact.appending("delete")
    static let vcard = contact.appending("vcard")
    static let introduction = contact.appending("introduction")
    static let me = contact.appending("me")

    static let api = SitePaths.apiContacts
    static let apiContact = api.appending(.contactID)
    static let apiVCard = apiContact.appending("vcard")
    static let apiWork = apiContact.appending("work")
    static let apiFood = apiContact.appending("food")
    static let apiIntroduction = apiContact.appending("introduction")
    static let apiMeContact = SitePaths.apiMe.appending("contact")
}
