extension PathParameter {
    static let companyID = PathParameter("companyID")
    static let occupationID = PathParameter("occupationID")
}

/// Companies and the contacts' occupations at them: the API.
enum WorkPaths {
    static let apiCompanies = SitePaths.api.appending("companies")
    static let apiCompany = apiCompanies.appending(.companyID)
    static let apiOccupations = SitePaths.api.appending("occupations")
    static let apiOccupation = apiOccupations.appending(.occupationID)
    static let apiContactOccupations = ContactPaths.apiContact.appending("occupations")
}
