import Foundation
import LocifyCore
import Vapor

/// A DAV request refused: its status and, where the RFCs name one, the precondition it failed, which the
/// answer's `DAV:error` body carries (`valid-sync-token`, `supported-report`).
struct DAVFailure: Error, Equatable {
    let status: HTTPResponseStatus
    var condition: DAVName? = nil
    var message: String? = nil

    static let notFound = DAVFailure(
        status: .notFound, message: "There is no such resource in your address book or calendars.")
}

/// DAV's errors as DAV clients read them: a status with a `DAV:error` body or a plain-text reason, not
/// the API's JSON envelope or the web's pages.
struct DAVFailureMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let failure as DAVFailure {
            return Self.response(failure)
        } catch let problem as DAVBodyProblem {
            return Self.response(DAVFailure(status: .badRequest, message: problem.reason))
        } catch let unsupported as DAVUnsupportedFilter {
            return Self.response(
                DAVFailure(status: .forbidden, condition: .calDAV("supported-filter"), message: unsupported.reason))
        } catch AppError.notFound {
            return Self.response(.notFound)
        }
    }

    static func response(_ failure: DAVFailure) -> Response {
        var headers = HTTPHeaders()
        if let condition = failure.condition {
            headers.replaceOrAdd(name: .contentType, value: "application/xml; charset=utf-8")
            return Response(
                status: failure.status, headers: headers,
                body: .init(string: DAVMultistatus.error(condition, message: failure.message)))
        }
        headers.replaceOrAdd(name: .contentType, value: "text/plain; charset=utf-8")
        return Response(
            status: failure.status, headers: headers,
            body: .init(string: (failure.message ?? failure.status.reasonPhrase) + "\n"))
    }
}

/// HTTP Basic with the account's e-mail and an app password (a personal API token; a Bearer token works
/// too), as DAV clients sign in. Failures count against the e-mail and the address like the log-in's,
/// and an unknown or wrong pair answers 401 with the challenge that makes a client ask for them.
struct DAVAuthenticator: AsyncMiddleware {
    static let challenge = #"Basic realm="Locify", charset="UTF-8""#

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let bearer = request.headers.bearerAuthorization {
            guard let user = try await request.accounts.user(forToken: bearer.token) else { return Self.refusal() }
            request.auth.login(user)
            return try await next.respond(to: request)
        }
        guard let basic = request.headers.basicAuthorization else { return Self.refusal() }
        let email = EmailAddress.normalized(basic.username)
        let throttle = LoginThrottleStore(database: request.db)
        let now = request.dependencies.now()
        do {
            try await throttle.check(email: email, address: request.clientAddress, now: now)
        } catch AccountError.tooManyAttempts(let seconds) {
            return Response(
                status: .tooManyRequests, headers: ["Retry-After": String(seconds), "Content-Type": "text/plain"],
                body: .init(string: "Too many failed sign-ins: try again in \(seconds) seconds.\n"))
        }
        if let user = try await request.accounts.user(forToken: basic.password),
            EmailAddress.normalized(user.profile.email) == email
        {
            request.auth.login(user)
            return try await next.respond(to: request)
        }
        try await throttle.recordFailure(email: email, address: request.clientAddress, now: now)
        return Self.refusal()
    }

    static func refusal() -> Response {
        Response(
            status: .unauthorized,
            headers: ["WWW-Authenticate": challenge, "Content-Type": "text/plain; charset=utf-8"],
            body: .init(string: "Sign in with your e-mail and an app password (Settings → API tokens).\n"))
    }
}
