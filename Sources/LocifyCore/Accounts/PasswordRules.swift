public enum PasswordRules {
    public static let minimumLength = 8
    /// bcrypt ignores bytes past 72, so longer passwords would silently match their prefix.
    public static let maximumBytes = 72

    /// The problem with `password`, or nil when it is acceptable.
    public static func problem(with password: String) -> String? {
        if password.count < minimumLength {
            return "Password must be at least \(minimumLength) characters."
        }
        if password.utf8.count > maximumBytes {
            return "Password must be at most \(maximumBytes) bytes."
        }
        return nil
    }
}
