/// In-app notifications: what the Notifications page lists, read or not. `dedupe_key` makes each
/// (reminder, occurrence, advance) arrive once however often its job runs.
enum NotificationsTable: StoredTable {
    static let name = "notifications"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case reminder = "reminder_id"
        case contact = "contact_id"
        case title
        case body
        case occurrenceDate = "occurrence_date"
        case daysBefore = "days_before"
        case isLate = "is_late"
        case dedupeKey = "dedupe_key"
        case createdAt = "created_at"
        case readAt = "read_at"
    }
}
