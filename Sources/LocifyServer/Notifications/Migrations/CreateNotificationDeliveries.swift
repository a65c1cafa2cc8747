import Fluent

/// The delivery log of the outside channels (webhook, e-mail): one row per notice and channel, written
/// before the outside world is touched, so a delivery interrupted half-way is never sent twice.
struct CreateNotificationDeliveries: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = NotificationDeliveriesTable.Column
        try await database.schema(NotificationDeliveriesTable.name)
            .identifier()
            .owner()
            .field(Column.channel, .string, .required)
            .field(Column.title, .string, .required)
            .field(Column.status, .string, .required)
            .field(Column.detail, .string)
            .field(Column.attempts, .int, .required)
            .field(Column.dedupeKey, .string, .required)
            .timestamps()
            .unique(on: Column.dedupeKey)
            .create()
        try await database.createIndexes(
            [("notification_deliveries_by_user", [Column.owner, .id])], on: NotificationDeliveriesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NotificationDeliveriesTable.name).delete()
    }
}
