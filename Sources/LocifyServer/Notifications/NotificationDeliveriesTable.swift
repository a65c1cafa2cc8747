import Fluent
import Foundation
import Vapor

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

/// Lets go of the delivery log's settled rows (sent, failed, interrupted) older than
/// `LOCIFY_DELIVERY_RETENTION_DAYS`; a delivery still being sent or retried stays whatever its age.
struct DeliveryLogRetention {
    let database: any Database
    let retention: TimeInterval

    /// Returns how many rows went.
    @discardableResult
    func prune(now: Date) async throws -> Int {
        let settled = [NotificationOutbox.Status.sent, .failed, .interrupted].map(\.rawValue)
        return try await TableWriter(NotificationDeliveriesTable.self, on: database).delete(
            where: #"""
                "status" IN (\#(binds: settled)) AND "updated_at" < \#(bind: now.addingTimeInterval(-retention))
                """#)
    }
}

extension PeriodicTask {
    /// Runs `DeliveryLogRetention` once an hour.
    static func pruningDeliveryLog(in application: Application) -> PeriodicTask {
        let retention = DeliveryLogRetention(
            database: application.db, retention: application.locifyConfig.retention.deliveryLog)
        return PeriodicTask(name: "letting go of the delivery log", every: cleanUpInterval) { now in
            try await retention.prune(now: now)
        }
    }
}
