import LocifyAPI
import Vapor

/// The one place errors become responses: Monica's envelope under `/api` and `/oauth`, an HTML page
/// elsewhere. The status is kept; internal details go to the log, never to the client.
struct LocifyErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let failure: Failure = Self.describe(error)
            if failure.status == .internalServerError {
                request.logger.report(error: error)
            }
            let response = request.isAPIRequest
                ? try Self.apiResponse(failure, for: request)
                : await Self.pageResponse(failure, for: request)
            if case .app(.tooManyAttempts(let seconds)) = failure {
                response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            }
            return response
        }
    }

    /// Known errors keep their meaning; Vapor's own (no route, bad body) are translated; anything else
    /// is an internal error whose text is not shown.
    enum Failure {
        case app(AppError)
        case other(status: HTTPResponseStatus, message: String)

        var status: HTTPResponseStatus {
            switch self {
            case .app(let error): error.status
            case .other(let status, _): status
            }
        }
    }

    private static func appError(for error: any Error) -> AppError? {
        if let error = error as? AppError { return error }
        if error is DecodingError { return .malformedBody }
        if let abort = error as? any AbortError {
            switch abort.status {
            case .notFound: return .notFound
            case .unauthorized: return .unauthenticated
            case .unsupportedMediaType, .badRequest, .payloadTooLarge: return .malformedBody
            default: return nil
            }
        }
        return nil
    }

    private static func describe(_ error: any Error) -> Failure {
        if let known = appError(for: error) { return .app(known) }
        if let abort = error as? any AbortError, abort.status.code < 500 {
            return .other(status: abort.status, message: abort.status.reasonPhrase)
        }
        return .other(status: .internalServerError, message: "Something went wrong on the server.")
    }

    private static func apiResponse(_ failure: Failure, for request: Request) throws -> Response {
        let response = Response(status: failure.status)
        switch failure {
        case .app(.unauthenticated):
            try response.content.encode(UnauthenticatedResource(), as: .json)
        case .app(let error):
            try response.content.encode(ErrorEnvelope(message: error.message, code: error.monicaCode), as: .json)
        case .other(let status, let message):
            try response.content.encode(ErrorEnvelope(message: .text(message), code: Int(status.code)), as: .json)
        }
        return response
    }

    private static func pageResponse(_ failure: Failure, for request: Request) async -> Response {
        let message: String
        switch failure {
        case .app(let error): message = error.plainMessage
        case .other(_, let text): message = text
        }
        // Best effort: when the database is what failed, the page is shown signed out.
        try? await request.authenticateFromSessionCookie()
        let context = ErrorPage.Context(
            layout: LayoutContext(request: request, title: failure.status.reasonPhrase),
            status: Int(failure.status.code), message: message)
        do {
            let view = try await request.view.render("error", context)
            let response = try await view.encodeResponse(for: request)
            response.status = failure.status
            return response
        } catch {
            request.logger.report(error: error)
            return Response(status: failure.status, body: .init(string: message))
        }
    }
}

extension Request {
    /// JSON routes: the Monica API and its OAuth log-in.
    var isAPIRequest: Bool {
        let path = url.path
        return path == "/api" || path.hasPrefix("/api/") || path.hasPrefix("/oauth/")
    }
}
