/// Failed log-ins, by e-mail and by client address, kept as long as they count (`LoginThrottle`).
enum LoginFailuresTable: StoredTable {
    static let name = "login_failures"

    enum Column: String, CaseIterable, Sendable {
        case id
        /// `LoginThrottle.keys(email:address:)`.
        case throttleKey = "throttle_key"
        case failedAt = "failed_at"
    }
}
