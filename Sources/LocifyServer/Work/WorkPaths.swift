extension PathParameter {
    static let companyID = PathParameter("companyID")
    static let occupationID = PathParameter("occupationID")
}

/// Companies and the contacts' occupations at them: the API and the contact page's forms.
enum WorkPaths {
    static let contactOccupations = ContactPaths.contact.appending("occupations")
    static let deleteOccupation = SitePath("occupations").appending(.occupationID).appending("delete")
    static let apiCompanies = SitePaths.api.appending("companies")
    static let apiCompany = apiCompanies.appending(.companyID)
    static let apiOccupations = SitePaths.api.appending("occupations")
    static let apiOccupation = apiOccupations.appending(.occupationID)
    static let apiContactOccupations = ContactPaths.apiContact.appending("occupations")
}
