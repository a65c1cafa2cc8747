extension PathParameter {
    static let fieldID = PathParameter("fieldID")
    static let kindID = PathParameter("kindID")
    static let fieldTypeID = PathParameter("typeID")
}

/// Contact fields (phone numbers, e-mails, accounts) and their kinds: pages and the API.
enum ContactFieldPaths {
    static let contactFields = ContactPaths.contact.appending("fields")
    static let field = SitePath("fields").appending(.fieldID)
    static let deleteField = field.appending("delete")
    static let kinds = SitePaths.settingsFieldKinds
    static let kind = kinds.appending(.kindID)
    static let deleteKind = kind.appending("delete")

    static let apiTypes = SitePaths.api.appending("contactfieldtypes")
    static let apiType = apiTypes.appending(.fieldTypeID)
    static let api = SitePaths.api.appending("contactfields")
    static let apiField = api.appending(.fieldID)
    static let apiContactFields = ContactPaths.apiContact.appending("contactfields")
    /// One field through its contact's path, as Monica's iOS app changes and deletes them.
    static let apiContactField = apiContactFields.appending(.fieldID)
    /// Monica's singular spelling of the same list, which its clients call.
    static let apiContactFieldsSingular = SitePaths.api.appending("contact").appending(.contactID)
        .appending("contactfields")
}
