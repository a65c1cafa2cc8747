import Fluent

/// One row per user who has been planned for: preferences, the calendar feed's secret, and how far the
/// planner has looked (`planned_through`), so a restart neither misses nor repeats a notification moment.
struct CreateNotificationSettings: AsyncMigration {
    static let schema = "notification_settings"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("minutes_after_midnight", .int, .required)
            .field("advance_days", .string, .required)
            .field("in_app", .bool, .required)
            .field("email", .bool, .required)
            .field("webhook_url", .string)
            .field("webhook_preset", .string)
            .field("week_starts_on", .int, .required)
            .field("feed_secret", .string)
            .field("planned_through", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .unique(on: "feed_secret")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// In-app notifications: what the Notifications page lists, read or not. `dedupe_key` makes each
/// (reminder, occurrence, advance) arrive once however often its job runs.
struct CreateNotifications: AsyncMigration {
    static let schema = "notifications"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("reminder_id", .int, .references(RemindersTable.name, "id", onDelete: .setNull))
            .field("contact_id", .int, .references(ContactModel.schema, "id", onDelete: .setNull))
            .field("title", .string, .required)
            .field("body", .string, .required)
            .field("occurrence_date", .string, .required)
            .field("days_before", .int, .required)
            .field("is_late", .bool, .required)
            .field("dedupe_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("read_at", .datetime)
            .unique(on: "dedupe_key")
            .create()
        try await database.createIndexes([("notifications_by_user", ["user_id", "id"])], on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// The delivery log of the outside channels (webhook, e-mail): one row per notice and channel, written
/// before the outside world is touched, so a delivery interrupted half-way is never sent twice.
struct CreateNotificationDeliveries: AsyncMigration {
    static let schema = "notification_deliveries"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("channel", .string, .required)
            .field("title", .string, .required)
            .field("status", .string, .required)
            .field("detail", .string)
            .field("attempts", .int, .required)
            .field("dedupe_key", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "dedupe_key")
            .create()
        try await database.createIndexes([("notification_deliveries_by_user", ["user_id", "id"])], on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}
