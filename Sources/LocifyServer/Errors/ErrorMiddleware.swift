import LocifyAPI
import Vapor

/// The one place errors become responses: Monica's envelope under `/api` and `/oauth`, an HTML page
/// elsewhere. The status is kept; internal details go to the log, never to the client. Future-based
/// like the rest of the edge: a request that succeeds pays nothing here.
struct LocifyErrorMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapError { error in
            let failure = Failure(error)
            if failure.status == .internalServerError {
                request.logger.report(error: error)
            }
            guard request.isAPIRequest else {
                return request.eventLoop.makeFutureWithTask {
                    let response = await Self.pageResponse(failure, for: request)
                    failure.decorate(response)
                    return response
                }
            }
            do {
                let response = try Self.apiResponse(failure)
                failure.decorate(response)
                return request.eventLoop.makeSucceededFuture(response)
            } catch {
                return request.eventLoop.makeFailedFuture(error)
            }
        }
    }

    private static func apiResponse(_ failure: Failure) throws -> Response {
        let response = Response(status: failure.status)
        if failure.kind == .unauthenticated {
            try response.content.encode(UnauthenticatedResource(), as: .json)
        } else {
            try response.content.encode(ErrorEnvelope(message: failure.envelopeMessage, code: failure.code), as: .json)
        }
        return response
    }

    private static func pageResponse(_ failure: Failure, for request: Request) async -> Response {
        // Best effort: when the database is what failed, the page is shown signed out.
        try? await request.authenticateFromSessionCookie()
        let context = ErrorPage.Context(
            layout: LayoutContext(request: request, title: failure.status.reasonPhrase),
            status: Int(failure.status.code), message: failure.messages.joined(separator: " "))
        do {
            let view = try await request.view.render("error", context)
            let response = try await view.encodeResponse(for: request)
            response.status = failure.status
            return response
        } catch {
            request.logger.report(error: error)
            return Response(status: failure.status, body: .init(string: context.message))
        }
    }
}

extension LocifyErrorMiddleware {
    /// Any error, described for the client: known failures keep their meaning, Vapor's own (no route,
    /// bad body) are translated, anything else is an internal error whose text is not shown.
    struct Failure {
        let kind: FailureKind?
        let status: HTTPResponseStatus
        let messages: [String]

        init(_ error: any Error) {
            if let failure = error as? any AppFailure {
                self.init(kind: failure.kind, messages: failure.messages)
            } else if error is DecodingError {
                self.init(kind: AppError.malformedBody.kind, messages: AppError.malformedBody.messages)
            } else if let abort = error as? any AbortError {
                switch abort.status {
                case .notFound: self.init(kind: .notFound, messages: AppError.notFound.messages)
                case .unauthorized: self.init(kind: .unauthenticated, messages: AppError.unauthenticated.messages)
                case .unsupportedMediaType, .badRequest:
                    self.init(kind: .malformedBody, messages: AppError.malformedBody.messages)
                default:
                    let isClientError = abort.status.code < 500
                    self.init(
                        kind: nil, status: isClientError ? abort.status : .internalServerError,
                        messages: [isClientError ? abort.status.reasonPhrase : Self.internalMessage])
                }
            } else {
                self.init(kind: nil, status: .internalServerError, messages: [Self.internalMessage])
            }
        }

        private init(kind: FailureKind, messages: [String]) {
            self.init(kind: kind, status: kind.status, messages: messages)
        }

        private init(kind: FailureKind?, status: HTTPResponseStatus, messages: [String]) {
            self.kind = kind
            self.status = status
            self.messages = messages
        }

        static let internalMessage = "Something went wrong on the server."

        /// Monica's code, or the HTTP status for failures Monica has no code for.
        var code: Int { kind?.monicaCode ?? Int(status.code) }

        /// Validation problems are an array in Monica's envelope; everything else one string.
        var envelopeMessage: ErrorMessage {
            kind == .invalidInput || kind == .conflict ? .list(messages) : .text(messages.joined(separator: " "))
        }

        /// Headers that belong with the status, on whichever shape the response takes.
        func decorate(_ response: Response) {
            kind?.addHeaders(to: &response.headers)
        }
    }
}

extension FailureKind {
    /// The one place `Retry-After` and `Allow` are set, for the API, error pages and forms that show
    /// the failure.
    func addHeaders(to headers: inout HTTPHeaders) {
        switch self {
        case .rateLimited(let seconds): headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
        case .methodNotAllowed(let allowed): headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
        default: break
        }
    }

    var status: HTTPResponseStatus {
        switch self {
        case .notFound: .notFound
        case .invalidInput: .unprocessableEntity
        case .conflict: .conflict
        case .limitTooBig, .invalidSort, .malformedBody: .badRequest
        case .unauthenticated, .badCredentials: .unauthorized
        case .rateLimited: .tooManyRequests
        case .forbidden: .forbidden
        case .methodNotAllowed: .methodNotAllowed
        case .outsideServiceFailed: .badGateway
        case .linkRefused: .unauthorized
        case .tooLarge: .payloadTooLarge
        case .gone: .gone
        case .preconditionFailed: .preconditionFailed
        }
    }

    var monicaCode: Int {
        switch self {
        case .notFound: MonicaErrorCode.notFound
        case .invalidInput: MonicaErrorCode.validation
        // Monica answers these with its validation code (and 422); the code stays so its clients
        // show the messages as they show any refusal.
        case .conflict: MonicaErrorCode.validation
        case .limitTooBig: MonicaErrorCode.limitTooBig
        case .invalidSort: MonicaErrorCode.invalidSort
        case .malformedBody: MonicaErrorCode.malformedJSON
        case .unauthenticated, .badCredentials, .forbidden, .linkRefused: MonicaErrorCode.notAuthorized
        case .rateLimited: MonicaErrorCode.tooManyRequests
        // Monica has no code of its own for it: its "invalid query", so clients that read codes find one of
        // Monica's; the status stays 405, with `Allow`.
        case .methodNotAllowed: MonicaErrorCode.invalidQuery
        case .outsideServiceFailed: 502
        case .tooLarge: 413
        case .gone: 410
        case .preconditionFailed: 412
        }
    }
}

extension Request {
    /// JSON routes: the Monica API and its OAuth log-in.
    /// Pictures are fetched by image loaders and API clients, never shown as pages.
    private static let apiRoots = [SitePaths.api, SitePaths.oauth, SitePaths.store].map(\.path)

    var isAPIRequest: Bool {
        let path = url.path
        return Self.apiRoots.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}
