import LocifyCore
import Vapor

/// Settings: profile, password and personal API tokens.
struct SettingsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let settings = routes.grouped(SiteURL.settings.pathComponents)
        settings.get(use: show)
        settings.post("profile", use: updateProfile)
        settings.post("password", use: changePassword)
        settings.post("tokens", use: createToken)
        settings.post("tokens", ":tokenID", "revoke", use: revokeToken)
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
            _ = try await request.accounts.updateProfile(
                of: user.id,
                with: AccountDraft(name: form.name, email: form.email, timezone: form.timezone, mapsApp: form.mapsApp))
            return .redirect(to: SiteURL.settings.path, flash: "Your profile was saved.")
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
            return .redirect(to: SiteURL.settings.path, flash: "Your password was changed.")
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
        try await request.accounts.revokeToken(try request.pathID("tokenID"), of: user.id)
        return request.redirect(to: .settings, flash: "The token was revoked.")
    }

    private func render(
        _ request: Request, profile: ProfileForm? = nil, profileErrors: FieldMessages = [:],
        passwordErrors: FieldMessages = [:], tokenErrors: FieldMessages = [:], tokenLabel: String? = nil,
        newToken: SettingsPage.NewToken? = nil
    ) async throws -> View {
        let page = try await SettingsPage.load(
            request, profile: profile, profileErrors: profileErrors, passwordErrors: passwordErrors,
            tokenErrors: tokenErrors, tokenLabel: tokenLabel, newToken: newToken)
        return try await request.view.render("settings/index", page)
    }
}

struct SettingsPage: Encodable {
    struct NewToken: Encodable {
        let label: String
        let secret: String
    }

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
    let email: String
    let tokens: [TokenRow]
    let hasTokens: Bool
    let newToken: NewToken?
    let profileURL: String
    let passwordURL: String
    let tokensURL: String

    static func load(
        _ request: Request, profile form: SettingsWebController.ProfileForm?, profileErrors: FieldMessages,
        passwordErrors: FieldMessages, tokenErrors: FieldMessages, tokenLabel: String?, newToken: NewToken?
    ) async throws -> SettingsPage {
        let user = try request.requireUser()
        let stored = user.profile
        let timezone = form?.timezone ?? stored.timezone
        let mapsApp = form?.mapsApp ?? stored.mapsApp.rawValue
        let tokens = try await request.accounts.tokens(of: user.id)
        func day(_ date: Date?) -> String { date.map { String(Timestamp.string($0).prefix(10)) } ?? "Never" }
        return SettingsPage(
            layout: LayoutContext(request: request, title: "Settings", section: .settings),
            profileFields: [
                FormField(
                    "name", label: "Name", value: form?.name ?? stored.name, errors: profileErrors, isRequired: true,
                    autocomplete: "name"),
                FormField(
                    "email", label: "Email", control: .email, value: form?.email ?? stored.email, errors: profileErrors,
                    isRequired: true, autocomplete: "email"),
                FormField(
                    "timezone", label: "Timezone", control: .select, errors: profileErrors,
                    options: TimeZones.identifiers.map {
                        SelectOption(
                            value: $0, label: $0.replacingOccurrences(of: "_", with: " "), isSelected: $0 == timezone)
                    }),
                FormField(
                    "maps_app", label: "Open directions in", control: .select, errors: profileErrors,
                    options: MapsApp.allCases.map {
                        SelectOption(value: $0.rawValue, label: $0.displayName, isSelected: $0.rawValue == mapsApp)
                    }),
            ],
            passwordFields: [
                FormField(
                    "current_password", label: "Current password", control: .password, errors: passwordErrors,
                    autocomplete: "current-password"),
                FormField(
                    "new_password", label: "New password", control: .password, errors: passwordErrors,
                    autocomplete: "new-password", minLength: 8),
                FormField(
                    "password_confirmation", label: "Repeat new password", control: .password, errors: passwordErrors,
                    autocomplete: "new-password"),
            ],
            tokenField: FormField("label", label: "Token name", value: tokenLabel, errors: tokenErrors, maxLength: 100),
            email: stored.email,
            tokens: try tokens.map {
                TokenRow(
                    label: $0.label, created: day($0.createdAt), lastUsed: day($0.lastUsedAt),
                    expires: $0.expiresAt.map { day($0) }, revokeURL: SiteURL.revokeToken(try $0.requireID()).path)
            },
            hasTokens: !tokens.isEmpty, newToken: newToken, profileURL: SiteURL.settingsProfile.path,
            passwordURL: SiteURL.settingsPassword.path,
            tokensURL: SiteURL.settingsTokens.path)
    }
}
