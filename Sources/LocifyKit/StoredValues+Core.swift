import Foundation
import GRDB
import LocifyCore

/// What a screen does with an address or a place — write it as its country does, open it in a maps app,
/// start directions, share it — by Core's rules, the same as the server's pages, with no network.
extension StoredAddress {
    /// How sure the position is (the server's geocoding); nil when the address has none.
    public var precision: CoordinatePrecision? {
        json["geocode"]?["precision"]?.string.flatMap(CoordinatePrecision.init(rawValue:))
    }

    /// The lines as the address's country writes them, the country's name last; `asWritten` keeps the case
    /// typed where the postal form writes capitals (for a screen; an envelope wants `false`).
    public func postalLines(asWritten: Bool = true) -> [String] {
        postalAddress.lines(asWritten: asWritten)
    }

    public var mapDestination: MapDestination {
        postalAddress.mapDestination(lines: postalLines(asWritten: false), precision: precision ?? .manual)
    }

    public func mapLink(in app: MapsApp) -> String? {
        MapLinks.show(mapDestination, in: app)
    }

    public func directionsLink(in app: MapsApp, mode: TravelMode = .driving) -> String? {
        MapLinks.directions(to: mapDestination, in: app, mode: mode)
    }

    public var shareText: String {
        ShareText.address(
            name: postalAddress.label, lines: postalLines(asWritten: false), coordinate: postalAddress.coordinate)
    }
}

extension StoredPlace {
    public var mapDestination: MapDestination { .coordinate(coordinate, label: name) }

    public func mapLink(in app: MapsApp) -> String? {
        MapLinks.show(mapDestination, in: app)
    }

    public func directionsLink(in app: MapsApp, mode: TravelMode = .driving) -> String? {
        MapLinks.directions(to: mapDestination, in: app, mode: mode)
    }

    public var shareText: String {
        let precise = json["precision"]?.string.flatMap(CoordinatePrecision.init(rawValue:))?.isStreetLevel ?? true
        return ShareText.place(name: name, address: address, coordinate: coordinate, notes: notes, isPrecise: precise)
    }
}

extension StoredReminder {
    /// The days it falls on, by Core's rules (a 31st monthly falls on each month's last day); nil for a
    /// reminder whose date or frequency this version cannot read.
    public var schedule: ReminderSchedule? {
        guard let initialDate = initialDate.flatMap(CalendarDate.init(iso8601:)),
            let recurrence = Recurrence(frequencyType: frequencyType, frequencyNumber: frequencyNumber)
        else { return nil }
        return ReminderSchedule(initialDate: initialDate, recurrence: recurrence)
    }
}

/// One day a reminder falls on, with the contact it is about.
public struct UpcomingReminder: Sendable, Equatable {
    public var date: CalendarDate
    public var reminder: StoredReminder
    /// The contact's name as the store has it; nil when the contact is not on the device.
    public var contactName: String?
}

/// A local notification to schedule on the device (iOS keeps at most 64 waiting): one occurrence of one
/// reminder, at the person's hour of notifications on its day.
public struct PlannedNotification: Sendable, Equatable, Identifiable {
    /// Stable across plans (`<reminder uuid>@<day>`), so an app replaces only what changed.
    public var id: String
    public var reminderUUID: String
    public var occurrence: CalendarDate
    public var fireDate: Date
    public var title: String
    public var body: String
}

extension LocifyStore {
    /// Every occurrence from `today` for `days` days, by day and then title, each with its contact's name.
    public func upcomingReminders(from today: CalendarDate, days: Int = 30) throws -> [UpcomingReminder] {
        guard days > 0, let last = today.adding(days: days - 1) else { return [] }
        let names = try contactNamesByID()
        var found: [UpcomingReminder] = []
        for reminder in try reminders(limit: Int.max) {
            guard let schedule = reminder.schedule else { continue }
            for date in schedule.occurrences(in: today...last) {
                found.append(
                    UpcomingReminder(
                        date: date, reminder: reminder, contactName: reminder.contactID.flatMap { names[$0] }))
            }
        }
        return found.sorted {
            ($0.date, $0.reminder.title, $0.reminder.id) < ($1.date, $1.reminder.title, $1.reminder.id)
        }
    }

    /// The next `limit` notifications across all reminders, soonest first: each occurrence at `minutes` past
    /// midnight in `timeZone` on its day, from `now` on. Worded as the server's notifications are.
    public func notificationPlan(
        limit: Int = 64, now: Date = Date(), timeZone: TimeZone = .current, minutes: Int = 9 * 60
    ) throws -> [PlannedNotification] {
        guard limit > 0 else { return [] }
        let today = CalendarDate(now, in: timeZone)
        var soonest: [(fireDate: Date, id: String, date: CalendarDate, reminder: StoredReminder)] = []
        for reminder in try reminders(limit: Int.max) {
            guard let schedule = reminder.schedule, var date = schedule.nextOccurrence(onOrAfter: today) else {
                continue
            }
            // At most `limit` of each: no reminder can bring more than that into the plan.
            for _ in 0..<limit {
                let fireDate = NotificationSchedule.moment(of: date, minutes: minutes, in: timeZone)
                if fireDate > now { soonest.append((fireDate, "\(reminder.state.uuid)@\(date)", date, reminder)) }
                guard let after = date.adding(days: 1), let next = schedule.nextOccurrence(onOrAfter: after) else {
                    break
                }
                date = next
            }
        }
        soonest.sort { ($0.fireDate, $0.id) < ($1.fireDate, $1.id) }
        // Worded only for the notifications kept.
        let names = try contactNamesByID()
        return soonest.prefix(limit).map { fireDate, id, date, reminder in
            let text = NoticeText(
                reminderTitle: reminder.title, contactName: reminder.contactID.flatMap { names[$0] } ?? "Someone",
                occurrence: date, daysBefore: 0, timeZone: timeZone)
            return PlannedNotification(
                id: id, reminderUUID: reminder.state.uuid, occurrence: date, fireDate: fireDate, title: text.title,
                body: text.body)
        }
    }

    /// The plan now, then again each time reminders or contacts change (a sync, an edit made here): what an
    /// app hands to the system's notification scheduler.
    public func notificationPlans(
        limit: Int = 64, timeZone: TimeZone = .current, minutes: Int = 9 * 60
    ) -> AsyncThrowingStream<[PlannedNotification], any Error> {
        let updates = self.updates()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try notificationPlan(limit: limit, timeZone: timeZone, minutes: minutes))
                    for await update in updates where !update.types.isDisjoint(with: ["reminder", "contact"]) {
                        continuation.yield(try notificationPlan(limit: limit, timeZone: timeZone, minutes: minutes))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func contactNamesByID() throws -> [Int: String] {
        try read { db in
            var names: [Int: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, title FROM record WHERE type = 'contact' AND id IS NOT NULL AND deleted_here = 0")
            {
                names[row["id"]] = row["title"]
            }
            return names
        }
    }
}
