import Fluent
import Foundation
import LocifyCore
import SQLKit
import Vapor

/// Turns reminders into delivery jobs when their notification moment comes: for each user whose moment
/// has passed since the last look, every due notice on every channel is queued under its dedupe key, so
/// planning the same moment twice (a restart, a second server) queues nothing new.
struct NotificationPlanner: Sendable {
    let database: any Database
    let dependencies: LocifyDependencies
    let logger: Logger

    private static let columns = ["id", "timezone"] + NotificationSettingsService.columns.names

    /// Plans every user up to `now` and returns how many deliveries were queued.
    @discardableResult
    func plan(now: Date) async throws -> Int {
        let rows = try await database.plainRows(
            """
            SELECT "users"."id", "users"."timezone", \
            \(NotificationSettingsService.columns.qualifiedList) \
            FROM "users" LEFT JOIN "notification_settings" ON "notification_settings"."user_id" = "users"."id" \
            ORDER BY "users"."id"
            """, columns: Self.columns)
        var queued = 0
        for row in rows {
            let userID = try row.requiredInteger(0)
            let settings = NotificationSettingsService(database: database, ownerID: userID, dependencies: dependencies)
            guard try row.integer(2) != nil else {
                try await settings.createIfMissing(now: now)
                continue
            }
            let stored = try NotificationSettingsService.stored(from: row, offset: 2)
            let timeZone = TimeZone(identifier: try row.requiredText(1)) ?? .gmt
            let days = NotificationSchedule.days(
                after: stored.plannedThrough, through: now, minutes: stored.preferences.minutesAfterMidnight,
                in: timeZone)
            guard !days.isEmpty else { continue }
            do {
                queued += try await plan(userID: userID, stored: stored, timeZone: timeZone, now: now)
            } catch {
                // One user's unreadable reminder must not hold up everyone else's notifications.
                logger.error("Planning notifications of user \(userID) failed: \(String(describing: error))")
            }
        }
        return queued
    }

    private func plan(userID: Int, stored: NotificationSettingsService.Stored, timeZone: TimeZone, now: Date)
        async throws -> Int
    {
        try await database.transaction { database in
            let reminders = try await ReminderService(database: database, ownerID: userID, dependencies: dependencies)
                .outlines()
            let notices = NotificationSchedule.notices(
                of: reminders, after: stored.plannedThrough, through: now, preferences: stored.preferences,
                timeZone: timeZone)
            var queued = 0
            for notice in notices {
                for channel in stored.preferences.channels {
                    try await JobQueue.enqueue(
                        DeliverNotificationJob.self,
                        .init(
                            userID: userID, reminderID: notice.reminderID, occurrence: notice.occurrence.description,
                            daysBefore: notice.daysBefore, dueAt: notice.dueAt, channel: channel),
                        dedupeKey: notice.dedupeKey(on: channel), runAt: now, on: database)
                    queued += 1
                }
            }
            try await TableWriter(NotificationSettingsTable.self, on: database).update(
                [.plannedThrough: now],
                where: #""user_id" = \#(literal: userID) AND "planned_through" < \#(bind: now)"#)
            return queued
        }
    }
}

extension Application {
    /// The planner over this application's database; the first background worker runs it before each
    /// pass, tests call `plan(now:)` with a clock of their own.
    var notificationPlanner: NotificationPlanner {
        NotificationPlanner(database: db, dependencies: dependencies, logger: logger)
    }
}
