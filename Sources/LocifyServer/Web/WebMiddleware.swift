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
            return request.redirect(to: SiteURL.login.path(query: [("next", destination)]))
        }
        return try await next.respond(to: request)
    }
}

/// Double-submit CSRF protection: a random token in an HttpOnly cookie must come back in the
/// `_csrf` field of every state-changing form (or the `X-CSRF-Token` header, for scripts). Another
/// site can make the browser send the cookie, but cannot read it to fill in the field.
struct CSRFMiddleware: AsyncMiddleware {
    static let fieldName = "_csrf"
    static let headerName = "X-CSRF-Token"
    /// The largest multipart body read to find the token: uploads (photos, imports) are bigger than
    /// the 16 KB Vapor collects by default, and arrive as a stream. Other forms keep the default.
    static let maximumUploadSize = 64 * 1024 * 1024

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let existing = request.cookies[CookieName.csrf]?.string
        let token = existing ?? request.dependencies.newSecret()
        request.storage[CSRFTokenKey.self] = token
        if ![.GET, .HEAD, .OPTIONS].contains(request.method) {
            let submitted = try await Self.submittedToken(in: request)
            guard let existing, let submitted, Self.constantTimeEqual(existing, submitted) else {
                throw FormError.expired
            }
        }
        let response = try await next.respond(to: request)
        if existing == nil {
            response.cookies[CookieName.csrf] = request.cookie(token, maxAge: nil)
        }
        return response
    }

    /// The token from the header, or from the form body, which is collected first when it streams in
    /// (large multipart uploads do). The handler then reads the same collected body.
    private static func submittedToken(in request: Request) async throws -> String? {
        if let header = request.headers.first(name: headerName) { return header }
        if request.body.data == nil {
            let isUpload = request.headers.contentType?.type == "multipart"
            let limit = isUpload ? maximumUploadSize : request.application.routes.defaultMaxBodySize.value
            do {
                _ = try await request.body.collect(max: limit).get()
            } catch {
                throw Abort(.payloadTooLarge)
            }
        }
        return try? request.content.get(String.self, at: fieldName)
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
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let shown = request.cookies[CookieName.flash]?.string
        request.storage[FlashKey.self] = shown.flatMap { $0.removingPercentEncoding }
        let response = try await next.respond(to: request)
        let isRedirect = (300..<400).contains(response.status.code)
        if shown != nil, !isRedirect, response.cookies[CookieName.flash] == nil {
            response.cookies[CookieName.flash] = request.cookie("", maxAge: 0)
        }
        return response
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
    func redirect(to site: SiteURL, flash: String) -> Response {
        redirect(to: site.path, flash: flash)
    }

    func redirect(to path: String, flash: String) -> Response {
        let response = redirect(to: path)
        let encoded = flash.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        response.cookies[CookieName.flash] = cookie(encoded, maxAge: 60)
        return response
    }
}
