import LocifyCore
import Vapor

/// Settings: profile, password and personal API tokens.
struct SettingsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let settings = routes.grouped("settings")
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
            case name, email, timezone, mapsApp = "maps_app"
        }
    }

    struct PasswordForm: Content {
        var currentPassword: String?
        var newPassword: String?
        var passwordConfirmation: String?

        enum CodingKeys: String, CodingKey {
            case currentPassword = "current_password", newPassword = "new_password"
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
        do {
            _ = try await request.accounts.updateProfile(
                of: user.id, with: AccountDraft(name: form.name, email: form.email, timezone: form.timezone, mapsApp: form.mapsApp))
            return request.redirect(to: .settings, flash: "Your profile was saved.")
        } catch AppError.invalid(let failure) {
            return try await render(request, profile: form, profileErrors: failure.byField).encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    func changePassword(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(PasswordForm.self)
        do {
            try await request.accounts.changePassword(
                of: user.id, current: form.currentPassword ?? "", new: form.newPassword ?? "",
                confirmation: form.passwordConfirmation ?? "")
            return request.redirect(to: .settings, flash: "Your password was changed.")
        } catch AppError.invalid(let failure) {
            return try await render(request, passwordErrors: failure.byField).encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    func createToken(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(TokenForm.self)
        do {
            let (token, secret) = try await request.accounts.createToken(for: user.id, label: form.label ?? "")
            // Shown on this response only: the secret is not stored and cannot be shown again.
            return try await render(request, newToken: .init(label: token.label, secret: secret))
                .encodeResponse(status: .created, for: request)
        } catch AppError.invalid(let failure) {
            return try await render(request, tokenErrors: failure.byField, tokenLabel: form.label)
                .encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    func revokeToken(request: Request) async throws -> Response {
        let user = try request.requireUser()
        try await request.accounts.revokeToken(try request.pathID("tokenID"), of: user.id)
        return request.redirect(to: .settings, flash: "The token was revoked.")
    }

    private func render(
        _ request: Request, profile: ProfileForm? = nil, profileErrors: [String: String] = [:],
        passwordErrors: [String: String] = [:], tokenErrors: [String: String] = [:], tokenLabel: String? = nil,
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
    let profile: [String: String]
    let profileErrors: [String: String]
    let passwordErrors: [String: String]
    let tokenErrors: [String: String]
    let tokenLabel: String
    let timezones: [SelectOption]
    let mapsApps: [SelectOption]
    let tokens: [TokenRow]
    let hasTokens: Bool
    let newToken: NewToken?
    let profileURL: String
    let passwordURL: String
    let tokensURL: String

    static func load(
        _ request: Request, profile form: SettingsWebController.ProfileForm?, profileErrors: [String: String],
        passwordErrors: [String: String], tokenErrors: [String: String], tokenLabel: String?, newToken: NewToken?
    ) async throws -> SettingsPage {
        let user = try request.requireUser()
        let stored = user.profile
        let timezone = form?.timezone ?? stored.timezone
        let mapsApp = form?.mapsApp ?? stored.mapsApp.rawValue
        let tokens = try await request.accounts.tokens(of: user.id)
        func day(_ date: Date?) -> String { date.map { String(Timestamp.string($0).prefix(10)) } ?? "Never" }
        return SettingsPage(
            layout: LayoutContext(request: request, title: "Settings", section: .settings),
            profile: ["name": form?.name ?? stored.name, "email": form?.email ?? stored.email],
            profileErrors: profileErrors, passwordErrors: passwordErrors, tokenErrors: tokenErrors,
            tokenLabel: tokenLabel ?? "",
            timezones: TimeZones.identifiers.map { SelectOption(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), isSelected: $0 == timezone) },
            mapsApps: MapsApp.allCases.map { SelectOption(value: $0.rawValue, label: $0.displayName, isSelected: $0.rawValue == mapsApp) },
            tokens: try tokens.map {
                TokenRow(
                    label: $0.label, created: day($0.createdAt), lastUsed: day($0.lastUsedAt),
                    expires: $0.expiresAt.map { day($0) }, revokeURL: SiteURL.revokeToken(try $0.requireID()).path)
            },
            hasTokens: !tokens.isEmpty, newToken: newToken, profileURL: SiteURL.settingsProfile.path, passwordURL: SiteURL.settingsPassword.path,
            tokensURL: SiteURL.settingsTokens.path)
    }
}
