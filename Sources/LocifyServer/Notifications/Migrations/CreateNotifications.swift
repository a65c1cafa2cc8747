import Fluent

/// In-app notifications: what the Notifications page lists, read or not. `dedupe_key` makes each
/// (reminder, occurrence, advance) arrive once however often its job runs.
struct CreateNotifications: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = NotificationsTable.Column
        try await database.schema(NotificationsTable.name)
            .identifier()
            .owner()
            .field(Column.reminder, .int, .references(RemindersTable.name, "id", onDelete: .setNull))
            .contact(required: false, onDelete: .setNull)
            .field(Column.title, .string, .required)
            .field(Column.body, .string, .required)
            .field(Column.occurrenceDate, .string, .required)
            .field(Column.daysBefore, .int, .required)
            .field(Column.isLate, .bool, .required)
            .field(Column.dedupeKey, .string, .required)
            .field(Column.createdAt, .datetime, .required)
            .field(Column.readAt, .datetime)
            .unique(on: Column.dedupeKey)
            .create()
        try await database.createIndexes([("notifications_by_user", [Column.owner, .id])], on: NotificationsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NotificationsTable.name).delete()
    }
}
