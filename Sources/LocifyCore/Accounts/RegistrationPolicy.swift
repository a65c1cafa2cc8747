import Foundation

/// Who may create an account.
public enum RegistrationPolicy: String, Sendable, CaseIterable {
    case open
    case closed

    /// The first user can always register, so a closed instance can still be set up from the web.
    public func allowsRegistration(existingUserCount: Int) -> Bool {
        self == .open || existingUserCount == 0
    }
}
