/// The durable background-work table (DESIGN.md, "Background work"): geocoding, notifications,
/// Gravatar look-ups, imports and clean-ups are rows here, so a restart loses none of them.
enum JobsTable: StoredTable {
    static let name = "jobs"

    enum Column: String, CaseIterable, Sendable {
        case id
        /// The `JobHandler.kind` that runs it.
        case kind
        /// The handler's payload, as JSON.
        case payload
        case runAt = "run_at"
        case attempts
        case lastError = "last_error"
        case lockedBy = "locked_by"
        case lockedUntil = "locked_until"
        case doneAt = "done_at"
        case failedAt = "failed_at"
        /// A job with the same key is never queued twice.
        case dedupeKey = "dedupe_key"
        case createdAt = "created_at"
    }

    /// The columns `JobRecord(row:)` reads.
    static let recordColumns = selection([
        .id, .kind, .payload, .runAt, .attempts, .lastError, .doneAt, .failedAt, .dedupeKey,
    ])
}
