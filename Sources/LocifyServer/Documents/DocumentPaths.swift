extension PathParameter {
    static let documentID = PathParameter("documentID")
}

/// Contacts' documents: the API.
enum DocumentPaths {
    static let api = SitePaths.api.appending("documents")
    static let apiDocument = api.appending(.documentID)
    /// The file itself, with the API's token.
    static let apiDocumentFile = apiDocument.appending("file")
    static let apiContactDocuments = ContactPaths.apiContact.appending("documents")
}
