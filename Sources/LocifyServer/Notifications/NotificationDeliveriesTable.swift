/// The delivery log of the outside channels (webhook, e-mail): one row per notice and channel, written
/// before the outside world is touched, so a delivery interrupted half-way is never sent twice.
enum NotificationDeliveriesTable: StoredTable {
    static let name = "notification_deliveries"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case channel
        case title
        case status
        case detail
        case attempts
        case dedupeKey = "dedupe_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
