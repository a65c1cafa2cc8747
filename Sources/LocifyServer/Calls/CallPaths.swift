extension PathParameter {
    static let callID = PathParameter("callID")
}

/// Calls: the API and the contact page's forms.
enum CallPaths {
    static let contactCalls = ContactPaths.contact.appending("calls")
    static let call = SitePath("calls").appending(.callID)
    static let delete = call.appending("delete")
    static let api = SitePaths.api.appending("calls")
    static let apiCall = api.appending(.callID)
    static let apiContactCalls = ContactPaths.apiContact.appending("calls")
}
