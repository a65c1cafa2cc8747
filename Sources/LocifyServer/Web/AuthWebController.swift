import LocifyCore
import Vapor

/// Register, log in and log out in the browser.
struct AuthWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("register", use: showRegister)
        routes.post("register", use: register)
        routes.get("login", use: showLogIn)
        routes.post("login", use: logIn)
        routes.post("logout", use: logOut)
    }

    struct AuthPage: Encodable {
        let layout: LayoutContext
        let values: [String: String]
        let errors: [String: String]
        let formError: String?
        let next: String?
        let registerURL: String
        let loginURL: String
        let registrationOpen: Bool
    }

    private func page(
        _ request: Request, title: String, values: [String: String] = [:], errors: [String: String] = [:],
        formError: String? = nil, next: String? = nil
    ) async throws -> AuthPage {
        let userCount = try await UserModel.query(on: request.db).count()
        return AuthPage(
            layout: LayoutContext(request: request, title: title), values: values, errors: errors,
            formError: formError, next: next, registerURL: SiteURL.register.path,
            loginURL: SiteURL.login.path(query: [("next", next)]),
            registrationOpen: request.application.locifyConfig.registration.allowsRegistration(existingUserCount: userCount))
    }

    struct RegisterForm: Content {
        var name: String?
        var email: String?
        var password: String?
    }

    func showRegister(request: Request) async throws -> View {
        try await request.view.render("auth/register", page(request, title: "Create your account"))
    }

    func register(request: Request) async throws -> Response {
        let form = try request.content.decode(RegisterForm.self)
        let values = ["name": form.name ?? "", "email": form.email ?? ""]
        do {
            let user = try await request.accounts.register(
                AccountDraft(name: form.name, email: form.email), password: form.password ?? "",
                policy: request.application.locifyConfig.registration)
            return try await signIn(user, request: request, destination: SiteURL.contacts.path, flash: "Welcome to Locify!")
        } catch AppError.invalid(let failure) {
            return try await request.view.render("auth/register", page(
                request, title: "Create your account", values: values, errors: failure.byField))
                .encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    struct LogInForm: Content {
        var email: String?
        var password: String?
        var next: String?
    }

    func showLogIn(request: Request) async throws -> View {
        let next = try? request.query.get(String.self, at: "next")
        return try await request.view.render("auth/login", page(request, title: "Log in", next: next))
    }

    func logIn(request: Request) async throws -> Response {
        let form = try request.content.decode(LogInForm.self)
        let values = ["email": form.email ?? ""]
        do {
            let user = try await request.logIn(email: form.email ?? "", password: form.password ?? "")
            return try await signIn(user, request: request, destination: Self.safeDestination(form.next), flash: nil)
        } catch AppError.badCredentials {
            return try await request.view.render("auth/login", page(
                request, title: "Log in", values: values, formError: "Email or password is not correct.", next: form.next))
                .encodeResponse(status: .unauthorized, for: request)
        } catch AppError.tooManyAttempts(let seconds) {
            let response = try await request.view.render("auth/login", page(
                request, title: "Log in", values: values,
                formError: "Too many failed attempts. Try again in \(seconds) seconds.", next: form.next))
                .encodeResponse(status: .tooManyRequests, for: request)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            return response
        }
    }

    func logOut(request: Request) async throws -> Response {
        if let secret = request.cookies[CookieName.session]?.string {
            try await request.accounts.endSession(secret: secret)
        }
        request.auth.logout(AuthenticatedUser.self)
        let response = request.redirect(to: SiteURL.login, flash: "You have logged out.")
        response.cookies[CookieName.session] = request.cookie("", maxAge: 0)
        return response
    }

    private func signIn(_ user: UserModel, request: Request, destination: String, flash: String?) async throws -> Response {
        let secret = try await request.accounts.startSession(for: try user.requireID())
        let response = flash.map { request.redirect(to: destination, flash: $0) } ?? request.redirect(to: destination)
        response.cookies[CookieName.session] = request.cookie(secret, maxAge: Int(AccountService.sessionLifetime))
        return response
    }

    /// Only paths on this site, so a crafted link cannot send a fresh log-in elsewhere.
    static func safeDestination(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return SiteURL.contacts.path }
        return next
    }
}

extension ValidationFailure {
    /// The first message per field, for showing beside each form field.
    var byField: [String: String] {
        errors.reduce(into: [:]) { result, error in
            if result[error.field] == nil { result[error.field] = error.message }
        }
    }
}
