import LocifyCore
import Vapor

/// Signing in with another provider in the browser: the start, the provider's return, the password a link
/// by e-mail address waits for. Every refusal is the log-in page again, saying why.
struct OpenIDWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPaths.signInWith, use: start)
        routes.get(AccountPaths.signInCallback, use: callback)
        routes.post(AccountPaths.confirmLink, use: confirmLink)
    }

    /// The browser that started a sign-in keeps its state here: an answer brought by another browser (a
    /// link someone sent, to sign the victim into the sender's account) does not match it.
    static let stateCookie = "locify_sign_in"

    /// `/login/with/{provider}`: off to the provider's sign-in.
    func start(request: Request) async throws -> Response {
        let client = try request.openIDClient(named: request.pathText(.provider) ?? "")
        do {
            let started = try await request.openIDSignIn().start(
                with: client, redirectURI: Self.redirectURI(request, provider: client.provider.name))
            return Self.redirect(request, to: started)
        } catch let failure as OutsideServiceError {
            return try await refused(
                request, "\(client.provider.label) cannot be reached: \(failure)", status: .badGateway)
        }
    }

    struct Callback: Content {
        var code: String?
        var state: String?
        var error: String?
    }

    /// `/login/with/{provider}/callback`: the provider's answer. The sign-in it names (and the browser's
    /// cookie of it) is spent whatever happens, and the ID token is checked before anyone is signed in.
    func callback(request: Request) async throws -> Response {
        let response = try await answer(request)
        response.cookies[Self.stateCookie] = request.cookie("", maxAge: 0)
        return response
    }

    private func answer(_ request: Request) async throws -> Response {
        let client = try request.openIDClient(named: request.pathText(.provider) ?? "")
        let label = client.provider.label
        let answer = try request.query.decode(Callback.self)
        guard let state = answer.state, let code = answer.code, answer.error == nil else {
            let reason = answer.error.map { " (\($0))" } ?? ""
            return try await refused(request, "Signing in with \(label) did not finish\(reason).", status: .badRequest)
        }
        guard request.cookies[Self.stateCookie]?.string == state else {
            return try await refused(
                request, "This sign-in was not started in this browser. Start it again here.", status: .badRequest)
        }
        let outcome: OpenIDSignIn.Outcome
        do {
            outcome = try await request.openIDSignIn().finish(
                with: client, state: state, code: code,
                redirectURI: Self.redirectURI(request, provider: client.provider.name))
        } catch let failure as OpenIDTokenFailure {
            request.logger.warning("An ID token from \(label) was refused: \(failure)")
            return try await refused(request, "\(label)'s answer was refused: \(failure)", status: .badRequest)
        } catch let failure as OutsideServiceError {
            return try await refused(request, "\(label) could not finish the sign-in: \(failure)", status: .badGateway)
        } catch let failure as any AppFailure {
            return try await refused(request, failure.plainMessage, status: failure.kind.status)
        }
        switch outcome {
        case .signedIn(let userID):
            return try await signIn(request, userID: userID, flash: nil)
        case .linked:
            return request.redirect(
                to: SitePaths.settings.path + "#sign-in-heading", flash: "\(label) is linked to your account.")
        case .needsPassword(let token, let email):
            return try await request.view.render(
                "auth/link", LinkPage.Context(provider: label, email: email, token: token, session: request.pageSession)
            ).encodeResponse(for: request)
        }
    }

    struct ConfirmForm: Content {
        var token: String?
        var password: String?
    }

    /// The password of the account whose address the provider gave: with it, the link is made. Wrong
    /// passwords count towards the log-in page's throttle.
    func confirmLink(request: Request) async throws -> Response {
        let form = try request.content.decode(ConfirmForm.self)
        let signIn = request.openIDSignIn()
        let token = form.token ?? ""
        let waiting = try await signIn.confirmation(token)
        guard let account = try await request.db.user(waiting.userID) else { throw SignInFailure.expired }
        let label =
            request.application.locifyConfig.openIDProviders.first { $0.name == waiting.provider }?.label
            ?? waiting.provider
        do {
            let user = try await request.logIn(email: account.profile.email, password: form.password ?? "")
            try await signIn.confirm(token, signedInAs: user.id)
            return try await self.signIn(request, userID: user.id, flash: "\(label) is linked to your account.")
        } catch let failure as AccountError {
            let message =
                failure == .badCredentials
                ? "That is not the password of \(account.profile.email)." : failure.formMessage
            return try await failure.answer(
                request.view.render(
                    "auth/link",
                    LinkPage.Context(
                        provider: label, email: account.profile.email, token: token, error: message,
                        session: request.pageSession)), for: request)
        }
    }

    private func signIn(_ request: Request, userID: Int, flash: String?) async throws -> Response {
        try await request.signIn(userID: userID, goingTo: SitePaths.map.path, flash: flash)
    }

    private func refused(_ request: Request, _ message: String, status: HTTPResponseStatus) async throws -> Response {
        try await request.logInPage(formError: message).encodeResponse(status: status, for: request)
    }

    /// Off to the provider, the browser keeping the sign-in's state for ten minutes.
    static func redirect(_ request: Request, to started: (url: String, state: String)) -> Response {
        let response = request.redirect(to: started.url, redirectType: .normal)
        response.cookies[stateCookie] = request.cookie(started.state, maxAge: Int(OpenIDSignIn.lifetime))
        return response
    }

    /// Where the provider sends the person back, registered with the provider as it is: the GET callback,
    /// or for a provider answering with a form POST (Apple) the address that turns it into that GET.
    static func redirectURI(_ request: Request, provider: String) -> String {
        let answersByPost =
            request.application.locifyConfig.openIDProviders.first { $0.name == provider }?.appleKey != nil
        return request.baseURL
            + (answersByPost ? AccountPaths.formPostCallback(provider) : AccountPaths.signInCallback(provider)).path
    }
}

/// Sign in with Apple answers with a form POST from its own site (`response_mode=form_post`): such a
/// POST carries neither this site's CSRF token nor its Lax cookies, so it is turned into the GET callback,
/// a top-level navigation that brings the browser's sign-in cookie, where everything is checked.
struct FormPostCallbackController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(AccountPaths.formPostCallback, use: hop)
    }

    struct Answer: Content {
        var code: String?
        var state: String?
        var error: String?
    }

    func hop(request: Request) async throws -> Response {
        let provider = try request.openIDClient(named: request.pathText(.provider) ?? "").provider.name
        let answer = try request.content.decode(Answer.self)
        let target = AccountPaths.signInCallback(provider).path(query: [
            ("code", answer.code), ("state", answer.state), ("error", answer.error),
        ])
        return request.redirect(to: target, redirectType: .normal)
    }
}

/// The settings' Link and Unlink buttons.
struct SignInSettingsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(AccountPaths.linkProvider, use: link)
        routes.post(AccountPaths.unlinkProvider, use: unlink)
    }

    func link(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let client = try request.openIDClient(named: request.pathText(.provider) ?? "")
        do {
            let started = try await request.openIDSignIn().start(
                with: client, redirectURI: OpenIDWebController.redirectURI(request, provider: client.provider.name),
                linkingUserID: user.id)
            return OpenIDWebController.redirect(request, to: started)
        } catch let failure as OutsideServiceError {
            return request.redirect(
                to: SitePaths.settings.path, flash: "\(client.provider.label) cannot be reached: \(failure)")
        }
    }

    func unlink(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let client = try request.openIDClient(named: request.pathText(.provider) ?? "")
        return try await request.handleAction(returningTo: SitePaths.settings.path) {
            do {
                try await request.openIDSignIn().unlink(client.provider.name, from: user.id)
            } catch let failure as SignInFailure {
                throw ValidationFailure(field: "provider", failure.plainMessage)
            }
            return .redirect(
                to: SitePaths.settings.path + "#sign-in-heading",
                flash: "\(client.provider.label) is no longer linked to your account.")
        }
    }
}

/// The password asked before a provider account is linked by its address.
enum LinkPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let provider: String
        let email: String
        let actionURL: String
        let fields: [FormField]
        let error: String?

        init(provider: String, email: String, token: String, error: String? = nil, session: PageSession) {
            layout = LayoutContext(title: "Link \(provider) to your account", session: session)
            self.provider = provider
            self.email = email
            actionURL = AccountPaths.confirmLink.path
            self.error = error
            fields = [
                .hidden("token", value: token),
                FormField(
                    "password", label: "Password of \(email)", control: .password, isRequired: true,
                    autocomplete: "current-password"),
            ]
        }
    }
}
