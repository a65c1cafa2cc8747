import Fluent
import Foundation
import LocifyCore
import SQLKit

/// One user's in-app notifications and delivery log, as the pages read them.
struct NotificationInbox {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    private static let columns = [
        "id", "title", "body", "contact_id", "occurrence_date", "is_late", "created_at", "read_at",
    ]

    private static func notification(from row: PlainRow) throws -> InAppNotification {
        InAppNotification(
            id: try row.requiredInteger(0), title: try row.requiredText(1), body: try row.requiredText(2),
            contactID: try row.integer(3), occurrence: try row.text(4).flatMap(CalendarDate.init(iso8601:)),
            isLate: try row.requiredBool(5), createdAt: try row.requiredDate(6), readAt: try row.date(7))
    }

    /// The newest first, at most `limit`; only those after `afterID` when it is given.
    func recent(limit: Int = 100, afterID: Int? = nil) async throws -> [InAppNotification] {
        var condition: SQLQueryString = #""user_id" = \#(literal: ownerID)"#
        if let afterID { condition += #" AND "id" > \#(literal: afterID)"# }
        return try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(Self.columns)) FROM "notifications" WHERE \(condition) \
            ORDER BY "id" DESC LIMIT \(literal: limit)
            """, columns: Self.columns
        ).map(Self.notification(from:))
    }

    func unreadCount() async throws -> Int {
        let rows = try await database.plainRows(
            """
            SELECT COUNT(*) AS "unread" FROM "notifications" \
            WHERE "user_id" = \(literal: ownerID) AND "read_at" IS NULL
            """, columns: ["unread"])
        return try rows.first?.requiredInteger(0) ?? 0
    }

    /// Marks one notification read, or all of them when `id` is nil.
    func markRead(_ id: Int?) async throws {
        var condition: SQLQueryString = #""user_id" = \#(literal: ownerID) AND "read_at" IS NULL"#
        if let id {
            let exists = try await database.plainRows(
                """
                SELECT "id" FROM "notifications" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
                """, columns: ["id"])
            guard !exists.isEmpty else { throw AppError.notFound }
            condition += #" AND "id" = \#(literal: id)"#
        }
        try await TableWriter(NotificationsTable.self, on: database).update(
            [.readAt: dependencies.now()], where: condition)
    }

    private static let deliveryColumns = ["channel", "title", "status", "detail", "attempts", "updated_at"]

    /// The delivery log, newest first.
    func deliveries(limit: Int = 20) async throws -> [NotificationDelivery] {
        try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(Self.deliveryColumns)) FROM "notification_deliveries" \
            WHERE "user_id" = \(literal: ownerID) ORDER BY "id" DESC LIMIT \(literal: limit)
            """, columns: Self.deliveryColumns
        ).map { row in
            NotificationDelivery(
                channel: NotificationChannel(rawValue: try row.requiredText(0)) ?? .webhook,
                title: try row.requiredText(1), status: try row.requiredText(2), detail: try row.text(3),
                attempts: try row.requiredInteger(4), updatedAt: try row.requiredDate(5))
        }
    }
}
