extension PathParameter {
    static let entryID = PathParameter("entryID")
}

/// The journal: its page and the API.
enum JournalPaths {
    static let page = SitePaths.journal
    static let entry = page.appending(.entryID)
    static let delete = entry.appending("delete")
    static let api = SitePaths.api.appending("journal")
    static let apiEntry = api.appending(.entryID)
}
