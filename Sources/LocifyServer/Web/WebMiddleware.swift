import Crypto
import Foundation
import LocifyCore
import Vapor

enum CookieName {
    static let session = "locify_session"
    static let csrf = "locify_csrf"
    static let flash = "locify_flash"
}

extension Request {
    /// A cookie that scripts cannot read, sent on top-level navigation from other sites (Lax) and only
    /// over HTTPS when the page came over HTTPS.
    func cookie(_ value: String, maxAge: Int?) -> HTTPCookies.Value {
        HTTPCookies.Value(
            string: value, maxAge: maxAge, path: "/", isSecure: isSecure, isHTTPOnly: true, sameSite: .lax)
    }
}

/// Signs the browser in from its session cookie.
struct WebSessionAuthenticator: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await request.authenticateFromSessionCookie()
        return try await next.respond(to: request)
    }
}

extension Request {
    /// Also called by the error page: a path that matches no route never passes through the web
    /// middleware, yet a signed-in visitor should still see their own navigation there.
    func authenticateFromSessionCookie() async throws {
        guard !auth.has(AuthenticatedUser.self),
            let secret = cookies[CookieName.session]?.string,
            let user = try await accounts.user(forSessionSecret: secret)
        else { return }
        auth.login(user)
    }
}

/// Sends visitors who are not signed in to the log-in page, remembering where they were going.
struct RequireWebUser: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.auth.has(AuthenticatedUser.self) else {
            let destination = request.method == .GET ? request.url.path : nil
            return request.redirect(to: AccountPaths.login.path(query: [("next", destination)]))
        }
        return try await next.respond(to: request)
    }
}

/// Double-submit CSRF protection: a random token in an HttpOnly cookie must come back in the
/// `_csrf` field of every state-changing form (or the `X-CSRF-Token` header, for scripts). Another
/// site can make the browser send the cookie, but cannot read it to fill in the field.
///
/// It also reads the body, and holds as little of it as it can while nobody is known: a multipart
/// form's token is checked as soon as its first part arrives, and only a signed-in visitor whose token
/// matched may send up to the route's own upload limit; everyone else gets the default 1 MB.
struct CSRFMiddleware: AsyncMiddleware {
    static let fieldName = "_csrf"
    static let headerName = "X-CSRF-Token"

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let existing = request.cookies[CookieName.csrf]?.string
        let token = existing ?? request.dependencies.newSecret()
        request.storage[CSRFTokenKey.self] = token
        if ![.GET, .HEAD, .OPTIONS].contains(request.method) {
            try await Self.checkSubmittedToken(in: request, against: existing)
        }
        let response = try await next.respond(to: request)
        if existing == nil {
            response.cookies[CookieName.csrf] = request.cookie(token, maxAge: nil)
        }
        return response
    }

    /// Checks the token from the header before the body, or from the form while its body is read.
    private static func checkSubmittedToken(in request: Request, against cookie: String?) async throws {
        let matches: @Sendable (String?) -> Bool = { submitted in
            guard let cookie, let submitted else { return false }
            return constantTimeEqual(cookie, submitted)
        }
        let application = request.application
        var limit = request.bodyLimit
        if !request.auth.has(AuthenticatedUser.self), limit.bytes(application) > BodyLimit.standard.bytes(application) {
            limit = .standard
        }
        if let header = request.headers.first(name: headerName) {
            guard matches(header) else { throw FormError.expired }
            return try await request.collectBody(upTo: limit)
        }
        if request.body.data == nil, request.headers.contentType?.type == "multipart",
            let boundary = request.headers.contentType?.parameters["boundary"]?.trimmingCharacters(in: ["\""])
        {
            // Past the first part, only a body whose first field is the token is read on.
            try await GuardedBodyReader.collect(
                request, boundary: boundary, limit: limit.bytes(application), tooLarge: limit.tooLarge(application),
                admit: { firstPart in
                    let submitted = GuardedBodyReader.firstField(named: fieldName, in: firstPart, boundary: boundary)
                    return matches(submitted) ? nil : FormError.expired
                })
            return
        }
        try await request.collectBody(upTo: limit)
        guard matches(try? request.content.get(String.self, at: fieldName)) else { throw FormError.expired }
    }

    private static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

struct CSRFTokenKey: StorageKey {
    typealias Value = String
}

/// A one-time message shown on the page after a redirect ("Contact saved.").
struct FlashMiddleware: AsyncMiddleware {
    /// Sent by the device's page keeper (sw.js), which fetches pages in the background with the person's
    /// cookies: its copies must not show a message, nor use one up before the page the person is going to.
    /// Neither may any other request a script sends.
    static let keepingHeader = "X-Locify-Keeping"

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard !Self.isBackground(request) else { return try await next.respond(to: request) }
        let shown = request.cookies[CookieName.flash]?.string
        request.storage[FlashKey.self] = shown.flatMap { $0.removingPercentEncoding }
        let response = try await next.respond(to: request)
        // Only a page uses the message up: the JSON a page's script asks for (the offline plan) while the
        // browser follows a redirect carries the cookie too, and must leave it for the page being opened.
        let isPage = response.headers.contentType?.subType == "html" && !(300..<400).contains(response.status.code)
        if shown != nil, isPage, response.cookies[CookieName.flash] == nil {
            response.cookies[CookieName.flash] = request.cookie("", maxAge: 0)
        }
        return response
    }

    /// A request the person does not see as a page: the page keeper's, or any a script sends (browsers say
    /// which with `Sec-Fetch-Mode`; a navigation is `navigate`, through the service worker too).
    static func isBackground(_ request: Request) -> Bool {
        if request.headers.first(name: keepingHeader) != nil { return true }
        guard let mode = request.headers.first(name: "Sec-Fetch-Mode") else { return false }
        return mode != "navigate"
    }
}

struct FlashKey: StorageKey {
    typealias Value = String
}

extension Request {
    /// The cookie's value stands in on pages outside the web routes (an unknown path's error page),
    /// where the CSRF middleware did not run but the layout still offers the log-out form.
    var csrfToken: String { storage[CSRFTokenKey.self] ?? cookies[CookieName.csrf]?.string ?? "" }
    var flashMessage: String? { storage[FlashKey.self] }

    /// Redirects after a successful form, with a message for the next page.
    func redirect(to site: some SiteAddress, flash: String) -> Response {
        redirect(to: site.path, flash: flash)
    }

    func redirect(to path: String, flash: String) -> Response {
        let response = redirect(to: path)
        let encoded = flash.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        response.cookies[CookieName.flash] = cookie(encoded, maxAge: 60)
        return response
    }
}
