import LocifyCore

/// What went wrong, in terms every client understands. A feature's error says which kind it is and
/// what to tell the person; the error middleware turns the kind into a status and a Monica code.
/// Nothing here knows about HTTP.
enum FailureKind: Equatable, Sendable {
    case notFound
    /// Input that breaks a rule; the messages name every problem.
    case invalidInput
    /// Well-formed input that clashes with what is stored (a name already taken, the last of
    /// something); the messages say what.
    case conflict
    case limitTooBig
    case invalidSort
    case malformedBody
    case unauthenticated
    case badCredentials
    case rateLimited(retryAfterSeconds: Int)
    case forbidden
    /// The path exists but not with this method; `allowed` names the methods it has.
    case methodNotAllowed(allowed: [String])
    /// A service Locify relies on (the tile server) failed; what the person asked for is not broken.
    case outsideServiceFailed
    /// A picture link without credentials whose signature is missing, forged or expired; the message
    /// says which.
    case linkRefused
    /// A body over the route's limit, refused before it is read.
    case tooLarge
    /// What was asked for is no longer kept (a sync cursor from before the horizon); the message says
    /// what to do instead.
    case gone
    /// A conditional change (`If-Match`) whose condition no longer holds: nothing was changed.
    case preconditionFailed
}

/// An error raised by a feature: a kind and the words for a person. Features define their own
/// (`AccountError`, `FormError`, `RoutingError`) instead of growing one enum.
protocol AppFailure: Error {
    var kind: FailureKind { get }
    /// One sentence, or one per problem for `invalidInput`.
    var messages: [String] { get }
}

extension AppFailure {
    var plainMessage: String { messages.joined(separator: " ") }
}

/// The failures every feature shares.
enum AppError: AppFailure, Equatable {
    case notFound
    case malformedBody
    case unauthenticated

    var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .malformedBody: .malformedBody
        case .unauthenticated: .unauthenticated
        }
    }

    var messages: [String] {
        switch self {
        case .notFound: ["The resource has not been found"]
        case .malformedBody: ["Problem parsing JSON"]
        case .unauthenticated: ["Unauthenticated."]
        }
    }
}

/// Validation problems are thrown as they are, by Core's rules and by services alike.
extension ValidationFailure: AppFailure {
    var kind: FailureKind {
        switch reason {
        case .invalid: .invalidInput
        case .conflict: .conflict
        // Monica's answer to another account's id in a body, with the message saying which field.
        case .unknownReference: .notFound
        }
    }

    init(field: String, _ message: String, reason: FieldError.Reason = .invalid) {
        self.init([FieldError(field: field, message: message, reason: reason)])
    }
}
