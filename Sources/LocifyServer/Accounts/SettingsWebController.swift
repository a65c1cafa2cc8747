import LocifyCore
import Vapor

/// Settings: profile, password and personal API tokens.
struct SettingsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.settings, use: show)
        routes.post(SitePaths.settingsProfile, use: updateProfile)
        routes.post(SitePaths.settingsPassword, use: changePassword)
        routes.post(SitePaths.settingsTokens, use: createToken)
        routes.post(AccountPaths.revokeToken, use: revokeToken)
        routes.post(SitePaths.settingsGravatar, use: updateGravatar)
    }

    struct ProfileForm: Content {
        var name: String?
        var email: String?
        var timezone: String?
        var mapsApp: String?

        enum CodingKeys: String, CodingKey {
            case name, email, timezone
            case mapsApp = "maps_app"
        }
    }

    struct PasswordForm: Content {
        var currentPassword: String?
        var newPassword: String?
        var passwordConfirmation: String?

        enum CodingKeys: String, CodingKey {
            case currentPassword = "current_password"
            case newPassword = "new_password"
            case passwordConfirmation = "password_confirmation"
        }
    }

    struct TokenForm: Content {
        var label: String?
    }

    func show(request: Request) async throws -> View {
        try await render(request)
    }

    func updateProfile(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(ProfileForm.self)
        return try await request.handleForm {
            let saved = try await request.accounts.updateProfile(
                of: user.id,
                with: AccountDraft(name: form.name, email: form.email, timezone: form.timezone, mapsApp: form.mapsApp))
            if saved.timezone != user.profile.timezone {
                try await request.notificationSettings().timeZoneChanged(
                    to: TimeZone(identifier: saved.timezone) ?? .gmt)
            }
            return .redirect(to: SitePaths.settings.path, flash: "Your profile was saved.")
        } redraw: { errors in
            try await render(request, profile: form, profileErrors: errors)
        }
    }

    func changePassword(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(PasswordForm.self)
        return try await request.handleForm {
            try await request.accounts.changePassword(
                of: user.id, current: form.currentPassword ?? "", new: form.newPassword ?? "",
                confirmation: form.passwordConfirmation ?? "")
            return .redirect(to: SitePaths.settings.path, flash: "Your password was changed.")
        } redraw: { errors in
            try await render(request, passwordErrors: errors)
        }
    }

    func createToken(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(TokenForm.self)
        return try await request.handleForm {
            let (token, secret) = try await request.accounts.createToken(for: user.id, label: form.label ?? "")
            // Shown on this response only: the secret is not stored and cannot be shown again.
            return .page(
                try await render(request, newToken: .init(label: token.label, secret: secret))
                    .encodeResponse(status: .created, for: request))
        } redraw: { errors in
            try await render(request, tokenErrors: errors, tokenLabel: form.label)
        }
    }

    func revokeToken(request: Request) async throws -> Response {
        let user = try request.requireUser()
        try await request.accounts.revokeToken(try request.pathID(.tokenID), of: user.id)
        return request.redirect(to: SitePaths.settings, flash: "The token was revoked.")
    }

    struct GravatarForm: Content {
        var lookUp: String?

        enum CodingKeys: String, CodingKey {
            case lookUp = "look_up"
        }
    }

    /// Turning look-ups off deletes the Gravatars kept for the account at once.
    func updateGravatar(request: Request) async throws -> Response {
        let form = try request.content.decode(GravatarForm.self)
        let enabled = form.lookUp != nil
        try await request.avatars().setLooksUpGravatar(enabled)
        return request.redirect(
            to: SitePaths.settings.path + "#pictures-heading",
            flash: enabled
                ? "Gravatar pictures will be looked up for your contacts' e-mail addresses."
                : "Gravatar look-ups are off, and the Gravatar pictures kept for you were deleted.")
    }

    private func render(
        _ request: Request, profile: ProfileForm? = nil, profileErrors: FieldMessages = [:],
        passwordErrors: FieldMessages = [:], tokenErrors: FieldMessages = [:], tokenLabel: String? = nil,
        newToken: SettingsPage.NewToken? = nil
    ) async throws -> View {
        let state = SettingsPage.State(
            profile: profile, profileErrors: profileErrors, passwordErrors: passwordErrors, tokenErrors: tokenErrors,
            tokenLabel: tokenLabel, newToken: newToken)
        return try await request.view.render("settings/index", try await SettingsPage.load(request, state: state))
    }
}

/// `GET /settings`: profile, password and API tokens, each form shown again with its own errors.
enum SettingsPage {
    struct NewToken: Encodable {
        let label: String
        let secret: String
    }

    /// What the visitor just sent and what went wrong with it; empty on a plain visit.
    struct State {
        var profile: SettingsWebController.ProfileForm?
        var profileErrors: FieldMessages = [:]
        var passwordErrors: FieldMessages = [:]
        var tokenErrors: FieldMessages = [:]
        var tokenLabel: String?
        var newToken: NewToken?
    }

    struct Context: Encodable {
        struct TokenRow: Encodable {
            let label: String
            let created: String
            let lastUsed: String
            let expires: String?
            let revokeURL: String
        }

        let layout: LayoutContext
        let profileFields: [FormField]
        let passwordFields: [FormField]
        let tokenField: FormField
        /// The account's e-mail beside the password form, unseen, for password managers.
        let usernameField: FormField
        /// A new token's secret, to select and copy.
        let newTokenField: FormField?
        /// What a contacts app (CardDAV) asks for, to select and copy: the server's address and the e-mail.
        let contactsAppFields: [FormField]
        let gravatarField: FormField
        let importField: FormField
        let accountImportField: FormField
        let tokens: [TokenRow]
        let hasTokens: Bool
        let newToken: NewToken?
        let profileURL: String
        let passwordURL: String
        let tokensURL: String
        let importURL: String
        let exportURL: String
        let accountExportURL = SitePaths.settingsExportAccount.path
        let accountImportURL = SitePaths.settingsImportAccount.path
        let notificationsURL: String
        let placesURL: String
        let gendersURL = SitePaths.settingsGenders.path
        let mapAreasURL = MapPaths.settingsAreas.path
        let fieldKindsURL = SitePaths.settingsFieldKinds.path
        let feedbackURL: String
        let remindersExportURL: String
        let placesExportURL: String
        let aboutURL: String
        let startURL: String
        let gravatarURL: String
        let looksUpGravatar: Bool
        /// `LOCIFY_GRAVATAR_URL=off`: the administrator turned look-ups off for everyone.
        let gravatarOffForServer: Bool
        /// Settings → Server, for an administrator only.
        let serverURL: String?
        /// The providers this server offers for signing in, each linked or not.
        var signInMethods: [SignInMethod] = []
        /// False for an account made by signing in with a provider, until it sets a password.
        var hasPassword = true

        struct SignInMethod: Encodable {
            let label: String
            /// The provider account's address, when linked.
            let email: String?
            let isLinked: Bool
            let linkURL: String
            let unlinkURL: String
        }

        init(
            profile stored: AccountProfile, tokens: [PersonalTokenSummary], state: State, session: PageSession,
            serverAddress: String = "", looksUpGravatar: Bool = true, gravatarOffForServer: Bool = false,
            isAdministrator: Bool = false
        ) {
            serverURL = isAdministrator ? SitePaths.settingsServer.path : nil
            let form = state.profile
            let timezone = form?.timezone ?? stored.timezone
            let mapsApp = form?.mapsApp ?? stored.mapsApp.rawValue
            func day(_ date: Date?) -> String { date.map(Timestamp.day) ?? "Never" }
            layout = LayoutContext(title: "Settings", section: .settings, session: session)
            profileFields = [
                FormField(
                    "name", label: "Name", value: form?.name ?? stored.name, errors: state.profileErrors,
                    isRequired: true, autocomplete: "name"),
                FormField(
                    "email", label: "Email", control: .email, value: form?.email ?? stored.email,
                    errors: state.profileErrors, isRequired: true, autocomplete: "email"),
                .timezone(selected: timezone, errors: state.profileErrors, browser: .offer),
                FormField(
                    "maps_app", label: "Open directions in", control: .select, errors: state.profileErrors,
                    options: MapsApp.allCases.map {
                        SelectOption(value: $0.rawValue, label: $0.displayName, isSelected: $0.rawValue == mapsApp)
                    }),
            ]
            passwordFields = [
                FormField(
                    "current_password", label: "Current password", control: .password, errors: state.passwordErrors,
                    autocomplete: "current-password"),
                FormField(
                    "new_password", label: "New password", control: .password, errors: state.passwordErrors,
                    autocomplete: "new-password", minLength: 8),
                FormField(
                    "password_confirmation", label: "Repeat new password", control: .password,
                    errors: state.passwordErrors, autocomplete: "new-password"),
            ]
            tokenField = FormField(
                "label", label: "Token name", value: state.tokenLabel, errors: state.tokenErrors,
                hint: "For example “Phone” or “Backup script”.", maxLength: 100)
            usernameField = FormField(
                "username", label: "Email", value: stored.email, autocomplete: "username", isHidden: true
            ).identified(as: "password-username")
            newTokenField = state.newToken.map {
                FormField(
                    "", label: "New token", value: $0.secret, isReadOnly: true, isLabelHidden: true,
                    styleClass: "token-value"
                ).identified(as: "new-token-value")
            }
            contactsAppFields = [
                FormField("", label: "Server address", value: serverAddress + "/", isReadOnly: true)
                    .identified(as: "contacts-app-server"),
                FormField("", label: "User name", value: stored.email, isReadOnly: true)
                    .identified(as: "contacts-app-user"),
            ]
            gravatarField = FormField(
                "look_up", label: "Look up Gravatar pictures for my contacts", control: .checkbox, value: "1",
                hint: "Turning this off deletes the Gravatar pictures kept for you; your contacts then show their "
                    + "photo or initials.",
                isChecked: looksUpGravatar
            ).identified(as: "gravatar-look-up")
            importField = FormField(
                "file", label: "vCard file to import", control: .file,
                hint: "vCard 3.0 or 4.0, as phones and Google Contacts export them. Contacts whose e-mail you "
                    + "already have are left out.",
                isRequired: true, accept: ".vcf,text/vcard,text/x-vcard"
            ).identified(as: "import-file")
            accountImportField = FormField(
                "file", label: "Locify account file to import", control: .file,
                hint: "The file “Export everything” wrote, on this server or another. What you already have "
                    + "stays; importing the same file again adds nothing twice.",
                isRequired: true, accept: ".json,application/json"
            ).identified(as: "account-import-file")
            self.tokens = tokens.map {
                TokenRow(
                    label: $0.label, created: day($0.createdAt), lastUsed: day($0.lastUsedAt),
                    expires: $0.expiresAt.map { day($0) }, revokeURL: AccountPaths.revokeToken($0.id).path)
            }
            hasTokens = !tokens.isEmpty
            newToken = state.newToken
            profileURL = SitePaths.settingsProfile.path
            passwordURL = SitePaths.settingsPassword.path
            tokensURL = SitePaths.settingsTokens.path
            importURL = SitePaths.settingsImport.path
            exportURL = SitePaths.settingsExport.path
            remindersExportURL = SitePaths.settingsExportReminders.path
            placesExportURL = SitePaths.settingsPlacesExport.path + "?format=geojson"
            notificationsURL = SitePaths.settingsNotifications.path
            placesURL = SitePaths.settingsPlaces.path
            feedbackURL = SitePaths.settingsFeedback.path
            aboutURL = SitePaths.about.path
            startURL = SitePaths.start.path
            gravatarURL = SitePaths.settingsGravatar.path
            self.looksUpGravatar = looksUpGravatar
            self.gravatarOffForServer = gravatarOffForServer
        }
    }

    static func load(_ request: Request, state: State) async throws -> Context {
        let user = try request.requireUser()
        let tokens = try await request.accounts.tokens(of: user.id)
        let avatars = try request.avatars()
        var context = Context(
            profile: user.profile, tokens: tokens, state: state, session: request.pageSession,
            serverAddress: request.baseURL, looksUpGravatar: try await avatars.accountLooksUpGravatar(),
            gravatarOffForServer: !request.dependencies.gravatar.isEnabled,
            isAdministrator: request.application.locifyConfig.isAdministrator(user))
        context.hasPassword = try await request.accounts.hasPassword(user.id)
        let providers = request.application.locifyConfig.openIDProviders
        if !providers.isEmpty {
            let linked = try await request.openIDSignIn().identities(of: user.id)
            context.signInMethods = providers.map { provider in
                let identity = linked.first { $0.provider == provider.name }
                return Context.SignInMethod(
                    label: provider.label, email: identity.flatMap(\.email), isLinked: identity != nil,
                    linkURL: AccountPaths.linkProvider(provider.name).path,
                    unlinkURL: AccountPaths.unlinkProvider(provider.name).path)
            }
        }
        return context
    }
}
