extension PathParameter {
    static let tagID = PathParameter("tagID")
}

/// A contact's tags on its page, and the API's tags.
enum TagPaths {
    static let contactTags = ContactPaths.contact.appending("tags")
    static let removeContactTag = contactTags.appending(.tagID).appending("remove")
    static let api = SitePaths.api.appending("tags")
    static let apiTag = api.appending(.tagID)
    static let apiTagContacts = apiTag.appending("contacts")
    static let apiSetTags = ContactPaths.apiContact.appending("setTags")
    static let apiUnsetTag = ContactPaths.apiContact.appending("unsetTag")
    static let apiUnsetTags = ContactPaths.apiContact.appending("unsetTags")
}
