import Fluent

/// One row per user who has been planned for: preferences, the calendar feed's secret, and how far the
/// planner has looked (`planned_through`), so a restart neither misses nor repeats a notification moment.
struct CreateNotificationSettings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = NotificationSettingsTable.Column
        try await database.schema(NotificationSettingsTable.name)
            .owner()
            .field(Column.minutesAfterMidnight, .int, .required)
            .field(Column.advanceDays, .string, .required)
            .field(Column.inApp, .bool, .required)
            .field(Column.email, .bool, .required)
            .field(Column.webhookURL, .string)
            .field(Column.webhookPreset, .string)
            .field(Column.weekStartsOn, .int, .required)
            .field(Column.feedSecret, .string)
            .field(Column.plannedThrough, .datetime, .required)
            .field(Column.updatedAt, .datetime, .required)
            .unique(on: Column.owner)
            .unique(on: Column.feedSecret)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NotificationSettingsTable.name).delete()
    }
}
