extension PathParameter {
    static let genderID = PathParameter("genderID")
}

/// Settings → Genders and the API's genders.
enum GenderPaths {
    static let settings = SitePaths.settingsGenders
    static let gender = settings.appending(.genderID)
    static let delete = gender.appending("delete")
    static let api = SitePaths.api.appending("genders")
    static let apiGender = api.appending(.genderID)
}
