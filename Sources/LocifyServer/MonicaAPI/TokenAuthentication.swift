import Vapor

/// Accepts `Authorization: Bearer <personal token>` on the API.
struct TokenAuthenticator: AsyncBearerAuthenticator {
    func authenticate(bearer: BearerAuthorization, for request: Request) async throws {
        if let user = try await request.accounts.user(forToken: bearer.token) {
            request.auth.login(try AuthenticatedUser(user))
        }
    }
}

/// Answers 401 `{"message":"Unauthenticated."}` when no token authenticated the request, whatever
/// the Accept header says (Monica redirects browsers to a log-in page; an API never should).
struct APIGuard: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.auth.has(AuthenticatedUser.self) else { throw AppError.unauthenticated }
        return try await next.respond(to: request)
    }
}
