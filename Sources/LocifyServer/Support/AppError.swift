import LocifyCore
import LocifyAPI
import Vapor

/// Errors the features raise, with no HTTP in them; `ErrorMiddleware` gives each its status and shape.
enum AppError: Error, Equatable {
    case notFound
    case invalid(ValidationFailure)
    case limitTooBig(maximum: Int)
    case invalidSort(allowed: [String])
    case malformedBody
    case unauthenticated
    case badCredentials
    case tooManyAttempts(retryAfter: Int)
    case formExpired
    case registrationClosed

    static func invalid(field: String, _ message: String) -> AppError {
        .invalid(ValidationFailure([FieldError(field: field, message: message)]))
    }

    var status: HTTPResponseStatus {
        switch self {
        case .notFound: .notFound
        case .invalid: .unprocessableEntity
        case .limitTooBig, .invalidSort, .malformedBody: .badRequest
        case .unauthenticated, .badCredentials: .unauthorized
        case .tooManyAttempts: .tooManyRequests
        case .formExpired, .registrationClosed: .forbidden
        }
    }

    /// Monica's error code for the envelope.
    var monicaCode: Int {
        switch self {
        case .notFound: MonicaErrorCode.notFound
        case .invalid: MonicaErrorCode.validation
        case .limitTooBig: MonicaErrorCode.limitTooBig
        case .invalidSort: MonicaErrorCode.invalidSort
        case .malformedBody: 37
        case .unauthenticated, .badCredentials, .formExpired, .registrationClosed: MonicaErrorCode.notAuthorized
        case .tooManyAttempts: MonicaErrorCode.tooManyRequests
        }
    }

    var message: ErrorMessage {
        switch self {
        case .notFound: .text("The resource has not been found")
        case .invalid(let failure): .list(failure.messages)
        case .limitTooBig(let maximum): .text("The limit parameter is too big (at most \(maximum))")
        case .invalidSort(let allowed): .text("The sorting criteria is invalid (use \(allowed.joined(separator: ", ")))")
        case .malformedBody: .text("Problem parsing JSON")
        case .unauthenticated: .text("Unauthenticated.")
        case .badCredentials: .text("Not authorized")
        case .tooManyAttempts(let seconds): .text("Too many attempts. Try again in \(seconds) seconds.")
        case .formExpired: .text("This form has expired. Reload the page and try again.")
        case .registrationClosed: .text("Registration is closed on this server.")
        }
    }

    var plainMessage: String {
        switch message {
        case .text(let text): text
        case .list(let list): list.joined(separator: " ")
        }
    }
}
