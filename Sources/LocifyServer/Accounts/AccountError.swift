import Vapor

/// Why an account operation was refused.
enum AccountError: AppFailure, Equatable {
    case badCredentials
    case tooManyAttempts(retryAfterSeconds: Int)
    case registrationClosed

    var kind: FailureKind {
        switch self {
        case .badCredentials: .badCredentials
        case .tooManyAttempts(let seconds): .rateLimited(retryAfterSeconds: seconds)
        case .registrationClosed: .forbidden
        }
    }

    var messages: [String] {
        switch self {
        case .badCredentials: ["Not authorized"]
        case .tooManyAttempts(let seconds): ["Too many attempts. Try again in \(seconds) seconds."]
        case .registrationClosed: ["Registration is closed on this server."]
        }
    }
}

extension AccountError {
    /// The sentence a form says: the log-in page, or a password asked before a link.
    var formMessage: String {
        switch self {
        case .badCredentials: "Email or password is not correct."
        case .tooManyAttempts(let seconds): "Too many failed attempts. Try again in \(seconds) seconds."
        case .registrationClosed: plainMessage
        }
    }

    /// `page` answered with the failure's status and headers (429 keeps Retry-After).
    func answer(_ page: View, for request: Request) async throws -> Response {
        let response = try await page.encodeResponse(status: kind.status, for: request)
        kind.addHeaders(to: &response.headers)
        return response
    }
}
