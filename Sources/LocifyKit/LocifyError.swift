import Foundation
import LocifyCore

/// Everything that can go wrong in the SDK, in terms an app can show or act on. The server's own words
/// travel along (`messages`): they are written for people.
public enum LocifyError: Error, Sendable, Equatable {
    /// The server address is not one the SDK can use (not http or https, no host).
    case badServerURL(String)
    /// The server cannot be reached now (offline, nobody listening, a timeout): try again later; writes
    /// made meanwhile wait in the outbox.
    case unreachable(String)
    /// The email and password do not match an account (the server's words).
    case badCredentials(String)
    /// The token is missing, expired or revoked: log in again.
    case unauthenticated
    /// What was sent breaks a rule (status 422 and the like); the messages name every problem.
    case rejected(status: Int, code: Int?, messages: [String])
    /// What was typed breaks a rule, found on the device before anything was queued: every problem, each
    /// naming its field (`first_name`) so a form can show it there.
    case invalidInput([FieldError])
    /// The record does not exist (or is not this account's).
    case notFound(String)
    /// Too many requests: wait that many seconds.
    case rateLimited(retryAfterSeconds: Int?)
    /// The server failed (5xx); the request may be tried again.
    case serverFailed(status: Int, message: String)
    /// The server answered something the SDK cannot read (not Locify, or a much newer version).
    case unexpectedAnswer(String)
    /// The device's store cannot be written: the disk is full.
    case diskFull(String)
    /// The device's store cannot be opened or read.
    case storeFailed(String)
}

extension LocifyError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .badServerURL(let text):
            "“\(text)” is not a server address: give one like https://locify.example.com."
        case .unreachable(let detail): "The server cannot be reached: \(detail)"
        case .badCredentials: "The email or password is not correct."
        case .unauthenticated: "The session has ended (the token expired or was revoked): log in again."
        case .rejected(_, _, let messages): messages.joined(separator: " ")
        case .invalidInput(let errors): errors.map(\.message).joined(separator: " ")
        case .notFound(let message): message
        case .rateLimited(let seconds):
            seconds.map { "Too many requests: try again in \($0) seconds." } ?? "Too many requests: try again later."
        case .serverFailed(let status, let message): "The server failed (\(status)): \(message)"
        case .unexpectedAnswer(let detail): "The server's answer could not be read: \(detail)"
        case .diskFull(let detail): "The device is out of storage: \(detail)"
        case .storeFailed(let detail): "The device's copy could not be read or written: \(detail)"
        }
    }
}
