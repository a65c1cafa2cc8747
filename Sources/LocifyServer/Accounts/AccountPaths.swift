extension PathParameter {
    static let tokenID = PathParameter("tokenID")
    static let provider = PathParameter("provider")
}

/// Signing up, in and out, and the account's tokens.
enum AccountPaths {
    static let register = SitePath("register")
    static let login = SitePath("login")
    static let logout = SitePath("logout")
    static let revokeToken = SitePaths.settingsTokens.appending(.tokenID).appending("revoke")
    /// Signing in with another provider (`LOCIFY_OIDC_PROVIDERS`): where it starts and where the provider
    /// sends the person back.
    static let signInWith = login.appending("with").appending(text: .provider)
    static let signInCallback = signInWith.appending("callback")
    /// A provider account whose address is an account's: that account's password, then the link.
    static let confirmLink = login.appending("link")
    /// Where a provider that answers with a form POST (Apple) sends it: a protocol's address, like
    /// `/oauth/login`, not one of this site's forms (it carries no CSRF token).
    static let formPostCallback = SitePaths.oauth.appending("callback").appending(text: .provider)
    static let signInSettings = SitePaths.settings.appending("sign-in")
    static let linkProvider = signInSettings.appending(text: .provider).appending("link")
    static let unlinkProvider = signInSettings.appending(text: .provider).appending("unlink")
}
