extension PathParameter {
    static let documentID = PathParameter("documentID")
}

/// Contacts' documents: the API and the contact page's forms.
enum DocumentPaths {
    static let contactDocuments = ContactPaths.contact.appending("documents")
    static let document = SitePath("documents").appending(.documentID)
    /// The file itself, with the web session.
    static let file = document.appending("file")
    static let delete = document.appending("delete")
    static let api = SitePaths.api.appending("documents")
    static let apiDocument = api.appending(.documentID)
    /// The file itself, with the API's token.
    static let apiDocumentFile = apiDocument.appending("file")
    static let apiContactDocuments = ContactPaths.apiContact.appending("documents")
}
