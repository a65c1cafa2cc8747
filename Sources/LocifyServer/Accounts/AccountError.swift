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
