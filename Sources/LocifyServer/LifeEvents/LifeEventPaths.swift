extension PathParameter {
    static let lifeEventID = PathParameter("lifeEventID")
}

/// LifeEvents: the API and the contact page's forms.
enum LifeEventPaths {
    static let contactLifeEvents = ContactPaths.contact.appending("life-events")
    static let lifeEvent = SitePath("life-events").appending(.lifeEventID)
    static let delete = lifeEvent.appending("delete")
    static let api = SitePaths.api.appending("lifeevents")
    static let apiLifeEvent = api.appending(.lifeEventID)
    static let apiContactLifeEvents = ContactPaths.apiContact.appending("lifeevents")
}
