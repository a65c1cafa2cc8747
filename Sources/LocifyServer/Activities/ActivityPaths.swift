extension PathParameter {
    static let activityID = PathParameter("activityID")
    static let activityTypeID = PathParameter("activityTypeID")
    static let activityTypeCategoryID = PathParameter("activityTypeCategoryID")
}

/// Activities, their types and categories: the API and the journal page's forms.
enum ActivityPaths {
    static let list = SitePath("activities")
    static let new = list.appending("new")
    static let activity = list.appending(.activityID)
    static let edit = activity.appending("edit")
    static let delete = activity.appending("delete")
    static let api = SitePaths.api.appending("activities")
    static let apiActivity = api.appending(.activityID)
    static let apiContactActivities = ContactPaths.apiContact.appending("activities")
    static let apiTypes = SitePaths.api.appending("activitytypes")
    static let apiType = apiTypes.appending(.activityTypeID)
    static let apiCategories = SitePaths.api.appending("activitytypecategories")
    static let apiCategory = apiCategories.appending(.activityTypeCategoryID)
}
