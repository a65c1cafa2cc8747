extension PathParameter {
    static let logID = PathParameter("logID")
}

/// The account's audit log: the API.
enum LogPaths {
    static let api = SitePaths.api.appending("logs")
    static let apiLog = api.appending(.logID)
    static let apiContactLogs = ContactPaths.apiContact.appending("logs")
}
