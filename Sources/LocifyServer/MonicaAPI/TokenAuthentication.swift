import Vapor

/// `Authorization: Bearer <personal token>` on the API, or `401 {"message":"Unauthenticated."}` whatever
/// the Accept header says (Monica redirects browsers to a log-in page; an API never should).
///
/// Future-based rather than `AsyncMiddleware` on purpose: every API request passes here, an
/// `AsyncMiddleware` costs a task per request, and a token seen in the last seconds is answered from
/// the cache without waiting on anything.
struct TokenAuthenticator: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard let token = request.headers.bearerAuthorization?.token else {
            return request.eventLoop.makeFailedFuture(AppError.unauthenticated)
        }
        let accounts = request.accounts
        let digest: String
        switch accounts.lookUpToken(token) {
        case .user(let user):
            request.auth.login(user)
            return next.respond(to: request)
        case .refused:
            return request.eventLoop.makeFailedFuture(AppError.unauthenticated)
        case .unknown(let unknownDigest):
            digest = unknownDigest
        }
        return request.eventLoop.makeFutureWithTask { try await accounts.user(forTokenDigest: digest) }
            .flatMap { user in
                guard let user else { return request.eventLoop.makeFailedFuture(AppError.unauthenticated) }
                request.auth.login(user)
                return next.respond(to: request)
            }
    }
}

/// The API token, or the web app's session cookie with its CSRF token in the `X-CSRF-Token` header: for
/// the routes the web app calls itself (the sync feed), so a page's scripts need no token of their own.
struct SessionOrTokenAuthenticator: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.headers.bearerAuthorization != nil {
            return try await TokenAuthenticator().respond(to: request, chainingTo: next).get()
        }
        try await request.authenticateFromSessionCookie()
        guard request.auth.has(AuthenticatedUser.self) else { throw AppError.unauthenticated }
        return try await CSRFMiddleware().respond(to: request, chainingTo: next)
    }
}
