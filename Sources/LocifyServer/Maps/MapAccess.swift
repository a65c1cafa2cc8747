import Vapor

/// The map routes answer a signed-in browser or an API token, and nobody else: the tile proxy must not
/// become an open relay to the tile server.
struct MapAccess: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if request.headers.bearerAuthorization != nil {
            return TokenAuthenticator().respond(to: request, chainingTo: next)
        }
        return request.eventLoop.makeFutureWithTask { try await request.authenticateFromSessionCookie() }
            .flatMap {
                guard request.auth.has(AuthenticatedUser.self) else {
                    return request.eventLoop.makeFailedFuture(AppError.unauthenticated)
                }
                return next.respond(to: request)
            }
    }
}
