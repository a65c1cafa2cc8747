import LocifyCore
import Vapor

/// Register, log in and log out in the browser.
struct AuthWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPaths.register, use: showRegister)
        routes.post(AccountPaths.register, use: register)
        routes.get(AccountPaths.login, use: showLogIn)
        routes.post(AccountPaths.login, use: logIn)
        routes.post(AccountPaths.logout, use: logOut)
    }

    struct RegisterForm: Content {
        var name: String?
        var email: String?
        var password: String?
        var timezone: String?
    }

    struct LogInForm: Content {
        var email: String?
        var password: String?
        var next: String?
    }

    private func registerPage(_ request: Request, form: RegisterForm? = nil, errors: FieldMessages = [:]) async throws
        -> View
    {
        try await request.view.render(
            "auth/register",
            AuthPage.Context(
                title: "Create your account", registering: form, errors: errors,
                registrationOpen: try await request.isRegistrationOpen(), session: request.pageSession))
    }

    func showRegister(request: Request) async throws -> View {
        try await registerPage(request)
    }

    func register(request: Request) async throws -> Response {
        let form = try request.content.decode(RegisterForm.self)
        return try await request.handleForm {
            let user = try await request.accounts.register(
                AccountDraft(name: form.name, email: form.email, timezone: form.timezone),
                password: form.password ?? "",
                policy: request.application.locifyConfig.registration)
            return .page(
                try await signIn(
                    user, request: request, destination: SitePaths.start.path, flash: "Welcome to Locify!"))
        } redraw: { errors in
            try await registerPage(request, form: form, errors: errors)
        }
    }

    func showLogIn(request: Request) async throws -> View {
        try await request.logInPage(next: request.queryParameters["next"])
    }

    func logIn(request: Request) async throws -> Response {
        let form = try request.content.decode(LogInForm.self)
        do {
            let user = try await request.logIn(email: form.email ?? "", password: form.password ?? "")
            return try await signIn(user, request: request, destination: Self.safeDestination(form.next), flash: nil)
        } catch let failure as AccountError {
            // Shown on the form, with the status and headers the failure carries (429 keeps Retry-After).
            return try await failure.answer(
                request.logInPage(email: form.email, formError: failure.formMessage, next: form.next), for: request)
        }
    }

    func logOut(request: Request) async throws -> Response {
        if let secret = request.cookies[CookieName.session]?.string {
            try await request.accounts.endSession(secret: secret)
        }
        request.auth.logout(AuthenticatedUser.self)
        let response = request.redirect(to: AccountPaths.login, flash: "You have logged out.")
        response.cookies[CookieName.session] = request.cookie("", maxAge: 0)
        // The pages and data the offline app kept on this device go too, so a shared computer keeps
        // nothing of the account (the page's script clears them as well, for browsers without this).
        response.headers.replaceOrAdd(name: "Clear-Site-Data", value: #""cache", "storage""#)
        return response
    }

    private func signIn(_ user: AuthenticatedUser, request: Request, destination: String, flash: String?) async throws
        -> Response
    {
        try await request.signIn(userID: user.id, goingTo: destination, flash: flash)
    }

    /// Only paths on this site, so a crafted link cannot send a fresh log-in elsewhere.
    static func safeDestination(_ next: String?) -> String {
        SitePath.localPath(next) ?? SitePaths.map.path
    }
}

extension Request {
    /// Whether the server's registration policy lets one more account be made now.
    func isRegistrationOpen() async throws -> Bool {
        try await accounts.allowsRegistration(application.locifyConfig.registration)
    }

    /// `GET /login`, with what was typed and why the last try was refused.
    func logInPage(email: String? = nil, formError: String? = nil, next: String? = nil) async throws -> View {
        try await view.render(
            "auth/login",
            AuthPage.Context(
                title: "Log in", email: email, formError: formError, next: next,
                registrationOpen: try await isRegistrationOpen(), providers: AuthPage.providerButtons(self),
                session: pageSession))
    }

    /// Starts a browser session for `userID` and goes to `destination`: after a log-in, a registration or
    /// a sign-in with another provider.
    func signIn(userID: Int, goingTo destination: String, flash: String?) async throws -> Response {
        let secret = try await accounts.startSession(for: userID)
        let response = flash.map { redirect(to: destination, flash: $0) } ?? redirect(to: destination)
        response.cookies[CookieName.session] = cookie(secret, maxAge: Int(AccountService.sessionLifetime))
        return response
    }
}

/// `GET /register` and `GET /login`.
enum AuthPage {
    struct ProviderButton: Encodable {
        let label: String
        let url: String
    }

    /// The providers `LOCIFY_OIDC_PROVIDERS` names, as the log-in page offers them.
    static func providerButtons(_ request: Request) -> [ProviderButton] {
        request.application.locifyConfig.openIDProviders.map {
            ProviderButton(label: "Sign in with \($0.label)", url: AccountPaths.signInWith($0.name).path)
        }
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let registerFields: [FormField]
        let loginFields: [FormField]
        let formError: String?
        /// Where to go once logged in, sent back unseen.
        let next: FormField?
        let registerURL: String
        let loginURL: String
        let registrationOpen: Bool
        /// "Sign in with …" for each provider the server offers.
        let providers: [ProviderButton]

        init(
            title: String, registering form: AuthWebController.RegisterForm? = nil, email: String? = nil,
            errors: FieldMessages = [:],
            formError: String? = nil, next: String? = nil, registrationOpen: Bool, providers: [ProviderButton] = [],
            session: PageSession
        ) {
            self.providers = providers
            layout = LayoutContext(title: title, session: session)
            registerFields = [
                FormField(
                    "name", label: "Name", value: form?.name, errors: errors, isRequired: true, autocomplete: "name"),
                FormField(
                    "email", label: "Email", control: .email, value: form?.email, errors: errors, isRequired: true,
                    autocomplete: "email"),
                FormField(
                    "password", label: "Password", control: .password, errors: errors, hint: "At least 8 characters.",
                    isRequired: true, autocomplete: "new-password", minLength: 8),
                // Once sent, the list holds the person's own choice: the browser's is only offered then.
                .timezone(selected: form?.timezone ?? "UTC", errors: errors, browser: form == nil ? .choose : .offer),
            ]
            loginFields = [
                FormField(
                    "email", label: "Email", control: .email, value: email ?? form?.email, isRequired: true,
                    autocomplete: "username"),
                FormField(
                    "password", label: "Password", control: .password, isRequired: true,
                    autocomplete: "current-password"),
            ]
            self.formError = formError
            self.next = next.map { FormField.hidden("next", value: $0) }
            registerURL = AccountPaths.register.path
            loginURL = AccountPaths.login.path(query: [("next", next)])
            self.registrationOpen = registrationOpen
        }
    }
}
