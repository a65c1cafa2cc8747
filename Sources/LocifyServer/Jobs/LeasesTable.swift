/// Work that one instance at a time may do (the periodic tasks), held by whoever renewed it last: a row
/// whose `expires_at` has passed is free for any instance to take.
enum LeasesTable: StoredTable {
    static let name = "leases"

    enum Column: String, CaseIterable, Sendable {
        case id
        /// What is held, e.g. `periodic`.
        case name
        /// The instance holding it (`JobRunner.workerID`).
        case holder
        case expiresAt = "expires_at"
    }
}
