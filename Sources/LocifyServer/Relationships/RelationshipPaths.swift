extension PathParameter {
    static let relationshipID = PathParameter("relationshipID")
    static let relationshipTypeID = PathParameter("relationshipTypeID")
    static let relationshipTypeGroupID = PathParameter("relationshipTypeGroupID")
}

/// Relationships: the API, its fixed types, and the contact page's forms.
enum RelationshipPaths {
    static let contactRelationships = ContactPaths.contact.appending("relationships")
    static let new = contactRelationships.appending("new")
    static let relationship = SitePath("relationships").appending(.relationshipID)
    static let delete = relationship.appending("delete")
    static let api = SitePaths.api.appending("relationships")
    static let apiRelationship = api.appending(.relationshipID)
    static let apiContactRelationships = ContactPaths.apiContact.appending("relationships")
    static let apiTypes = SitePaths.api.appending("relationshiptypes")
    static let apiType = apiTypes.appending(.relationshipTypeID)
    static let apiGroups = SitePaths.api.appending("relationshiptypegroups")
    static let apiGroup = apiGroups.appending(.relationshipTypeGroupID)
}
