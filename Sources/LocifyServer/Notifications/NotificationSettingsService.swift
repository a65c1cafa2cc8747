import Fluent
import Foundation
import LocifyCore
import SQLKit

/// One user's notification preferences and calendar-feed secret. Users who never saved any have the
/// defaults; their row is written the first time the planner or a save needs it.
struct NotificationSettingsService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let columns = NotificationSettingsTable.storedColumns
    private var settings: TableWriter<NotificationSettingsTable> {
        TableWriter(NotificationSettingsTable.self, on: database)
    }
    private var ownRow: SQLQueryString { #""user_id" = \#(literal: ownerID)"# }

    struct Stored {
        var preferences: NotificationPreferences
        var feedSecret: String?
        var plannedThrough: Date
    }

    /// Reads a row selected with `columns` from `offset` on.
    static func stored(from row: PlainRow, offset: Int = 0) throws -> Stored {
        var webhook: WebhookTarget?
        if let url = try row.text(offset + 4) {
            webhook = WebhookTarget(
                url: url, preset: WebhookTarget.Preset(rawValue: try row.text(offset + 5) ?? "") ?? .json)
        }
        return Stored(
            preferences: NotificationPreferences(
                minutesAfterMidnight: try row.requiredInteger(offset),
                advanceDays: NotificationPreferences.advanceDays(
                    fromText: try row.requiredText(offset + 1)),
                inApp: try row.requiredBool(offset + 2), email: try row.requiredBool(offset + 3), webhook: webhook,
                weekStartsOn: try row.requiredInteger(offset + 6)),
            feedSecret: try row.text(offset + 7), plannedThrough: try row.requiredDate(offset + 8))
    }

    func stored() async throws -> Stored? {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "notification_settings" WHERE "user_id" = \(literal: ownerID)
            """, columns: Self.columns.names)
        return try rows.first.map { try Self.stored(from: $0) }
    }

    func preferences() async throws -> NotificationPreferences {
        try await stored()?.preferences ?? .standard
    }

    /// Writes the defaults for a user who has no row yet, planned from `now` on (nothing older is told).
    func createIfMissing(now: Date) async throws {
        try await settings.insert(
            [
                .owner: ownerID, .minutesAfterMidnight: NotificationPreferences.defaultMinutes, .advanceDays: "",
                .inApp: true, .email: false, .weekStartsOn: NotificationPreferences.defaultWeekStart,
                .plannedThrough: now, .updatedAt: now,
            ], onConflict: [.owner])
    }

    /// Saves `preferences`. A new time of day or timezone can put today's moment before the planner's
    /// mark; moving the mark back to the start of the user's day lets today's notices still go out (each
    /// at most once: the ones already sent are known by their keys).
    func save(_ preferences: NotificationPreferences, timeZone: TimeZone, timeZoneChanged: Bool = false)
        async throws
    {
        let now = dependencies.now()
        let before = try await stored()
        if before == nil { try await createIfMissing(now: now) }
        var plannedThrough = before?.plannedThrough ?? now
        if before?.preferences.minutesAfterMidnight != preferences.minutesAfterMidnight || timeZoneChanged {
            plannedThrough = min(plannedThrough, Self.startOfToday(now: now, in: timeZone))
        }
        try await settings.update(
            [
                .minutesAfterMidnight: preferences.minutesAfterMidnight, .advanceDays: preferences.advanceDaysText,
                .inApp: preferences.inApp, .email: preferences.email, .webhookURL: preferences.webhook?.url,
                .webhookPreset: preferences.webhook?.preset.rawValue, .weekStartsOn: preferences.weekStartsOn,
                .plannedThrough: plannedThrough, .updatedAt: now,
            ], where: ownRow)
    }

    /// A reminder was made or changed: one due today whose moment has passed already must still be told
    /// today, at once. Moving the planner's mark back to the start of the user's day has it look at today
    /// again; the notices already sent are known by their keys, so none goes out twice.
    func lookAtTodayAgain(now: Date) async throws {
        let rows = try await database.plainRows(
            #"SELECT "timezone" FROM "users" WHERE "id" = \#(literal: ownerID)"#, columns: ["timezone"])
        let timeZone = try rows.first?.text(0).flatMap(TimeZone.init(identifier:)) ?? .gmt
        let startOfToday = Self.startOfToday(now: now, in: timeZone)
        try await settings.update(
            [.plannedThrough: startOfToday], where: ownRow + #" AND "planned_through" > \#(bind: startOfToday)"#)
    }

    /// The user changed timezone: today's notices follow the new local time.
    func timeZoneChanged(to timeZone: TimeZone) async throws {
        guard let before = try await stored() else { return }
        try await save(before.preferences, timeZone: timeZone, timeZoneChanged: true)
    }

    /// Just before the user's midnight: a time of day of 00:00 is a moment of today too.
    static func startOfToday(now: Date, in timeZone: TimeZone) -> Date {
        NotificationSchedule.moment(of: CalendarDate(now, in: timeZone), minutes: 0, in: timeZone)
            .addingTimeInterval(-1)
    }

    /// The secret in the calendar feed's URL, made on first use.
    func feedSecret() async throws -> String {
        if let secret = try await stored()?.feedSecret { return secret }
        return try await regenerateFeedSecret()
    }

    /// A new secret: the old feed URL stops working at once.
    @discardableResult
    func regenerateFeedSecret() async throws -> String {
        let now = dependencies.now()
        try await createIfMissing(now: now)
        let secret = dependencies.newSecret()
        try await settings.update([.feedSecret: secret, .updatedAt: now], where: ownRow)
        return secret
    }

    /// The user a feed secret belongs to.
    static func owner(ofFeedSecret secret: String, on database: any Database) async throws -> Int? {
        guard !secret.isEmpty, secret.count <= 100 else { return nil }
        let rows = try await database.plainRows(
            #"SELECT "user_id" FROM "notification_settings" WHERE "feed_secret" = \#(bind: secret)"#,
            columns: ["user_id"])
        return try rows.first?.requiredInteger(0)
    }
}
