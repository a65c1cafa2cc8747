/// One row per user who has been planned for: preferences, the calendar feed's secret, and how far the
/// planner has looked (`planned_through`), so a restart neither misses nor repeats a notification moment.
enum NotificationSettingsTable: StoredTable {
    static let name = "notification_settings"

    enum Column: String, CaseIterable, Sendable {
        case owner = "user_id"
        case minutesAfterMidnight = "minutes_after_midnight"
        case advanceDays = "advance_days"
        case inApp = "in_app"
        case email
        case webhookURL = "webhook_url"
        case webhookPreset = "webhook_preset"
        case weekStartsOn = "week_starts_on"
        case feedSecret = "feed_secret"
        case plannedThrough = "planned_through"
        case updatedAt = "updated_at"
    }

    /// The columns `NotificationSettingsService.stored(from:offset:)` reads.
    static let storedColumns = selection([
        .minutesAfterMidnight, .advanceDays, .inApp, .email, .webhookURL, .webhookPreset, .weekStartsOn,
        .feedSecret, .plannedThrough,
    ])
}
