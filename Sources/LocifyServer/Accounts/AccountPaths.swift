extension PathParameter {
    static let tokenID = PathParameter("tokenID")
}

/// Signing up, in and out, and the account's tokens.
enum AccountPaths {
    static let register = SitePath("register")
    static let login = SitePath("login")
    static let logout = SitePath("logout")
    static let revokeToken = SitePaths.settingsTokens.appending(.tokenID).appending("revoke")
}
