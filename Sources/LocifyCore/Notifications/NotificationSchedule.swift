import Foundation

/// One notification that has come due: an occurrence of a reminder, told `daysBefore` days ahead (0 on
/// the day), at `dueAt`.
public struct DueNotice: Hashable, Sendable {
    public let reminderID: Int
    public let occurrence: CalendarDate
    public let daysBefore: Int
    public let dueAt: Date

    public init(reminderID: Int, occurrence: CalendarDate, daysBefore: Int, dueAt: Date) {
        self.reminderID = reminderID
        self.occurrence = occurrence
        self.daysBefore = daysBefore
        self.dueAt = dueAt
    }

    /// The name of this notice on `channel`, the same however often it is worked out: it is what makes a
    /// delivery happen at most once.
    public func dedupeKey(on channel: NotificationChannel) -> String {
        "notify:\(reminderID):\(occurrence):\(daysBefore):\(channel.rawValue)"
    }
}

/// When notifications go out: each local day has one notification moment, the user's time of day in
/// their timezone, and a notice is due at the moment of the day it is told on.
public enum NotificationSchedule {
    /// How far back a server that was down catches up; anything older is not worth telling any more.
    public static let catchUpDays = 31

    /// The instant `minutes` after the start of `day` in `timeZone`. A time that a daylight-saving change
    /// skips is moved forward by the gap; a time that happens twice is its first. Either way each day has
    /// exactly one moment, so a change of clocks neither skips nor repeats a day.
    public static func moment(of day: CalendarDate, minutes: Int, in timeZone: TimeZone) -> Date {
        let wall = TimeInterval(day.dayNumber) * 86_400 + TimeInterval(minutes) * 60 - unixEpochDayOffset
        let offsetBefore = TimeInterval(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400)))
        let offsetAfter = TimeInterval(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400)))
        let candidates = [wall - offsetBefore, wall - offsetAfter].filter { instant in
            TimeInterval(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))) == wall - instant
        }
        return Date(timeIntervalSince1970: candidates.min() ?? wall - offsetBefore)
    }

    /// `CalendarDate.dayNumber` of 1970-01-01, so day numbers become Unix time.
    private static let unixEpochDayOffset: TimeInterval = {
        guard let epoch = CalendarDate(year: 1970, month: 1, day: 1) else { return 0 }
        return TimeInterval(epoch.dayNumber) * 86_400
    }()

    /// The local days whose notification moment lies in `(after, through]`, with that moment, oldest
    /// first; no further back than `catchUpDays` before `through`.
    public static func days(
        after: Date, through: Date, minutes: Int, in timeZone: TimeZone
    ) -> [(day: CalendarDate, moment: Date)] {
        let start = max(after, through.addingTimeInterval(-Double(catchUpDays) * 86_400))
        guard start < through else { return [] }
        let first = CalendarDate(start, in: timeZone).dayNumber - 1
        let last = CalendarDate(through, in: timeZone).dayNumber + 1
        return (first...last).compactMap { number in
            guard let day = CalendarDate(dayNumber: number) else { return nil }
            let moment = moment(of: day, minutes: minutes, in: timeZone)
            return moment > start && moment <= through ? (day, moment) : nil
        }
    }

    /// Every notice of `reminders` that comes due in `(after, through]`: on the day of an occurrence and
    /// on each advance day before it. A one-time reminder marked done is not told again.
    public static func notices(
        of reminders: [ReminderOutline], after: Date, through: Date, preferences: NotificationPreferences,
        timeZone: TimeZone
    ) -> [DueNotice] {
        let days = days(after: after, through: through, minutes: preferences.minutesAfterMidnight, in: timeZone)
        guard !days.isEmpty else { return [] }
        let offsets = [0] + preferences.advanceDays
        var notices: [DueNotice] = []
        for reminder in reminders where reminder.doneAt == nil {
            let schedule = reminder.schedule
            for (day, moment) in days {
                for daysBefore in offsets {
                    guard let occurrence = day.adding(days: daysBefore),
                        schedule.nextOccurrence(onOrAfter: occurrence) == occurrence
                    else { continue }
                    notices.append(
                        DueNotice(
                            reminderID: reminder.id, occurrence: occurrence, daysBefore: daysBefore, dueAt: moment))
                }
            }
        }
        return notices.sorted { ($0.dueAt, $0.reminderID, $0.daysBefore) < ($1.dueAt, $1.reminderID, $1.daysBefore) }
    }

    /// Whether `occurrence` still is one of `reminder`'s, so a notice queued before an edit sends nothing
    /// stale.
    public static func isCurrent(_ occurrence: CalendarDate, of reminder: Reminder) -> Bool {
        reminder.doneAt == nil && reminder.fields.schedule.nextOccurrence(onOrAfter: occurrence) == occurrence
    }
}

/// What a notification says, the same on every channel: the contact and the title first, then when.
public struct NoticeText: Equatable, Sendable {
    public let title: String
    public let body: String

    /// `lateSince` is the moment it was due when it goes out more than a day late.
    public init(
        reminderTitle: String, contactName: String, occurrence: CalendarDate, daysBefore: Int, lateSince: Date? = nil,
        timeZone: TimeZone
    ) {
        title = "\(contactName): \(reminderTitle)"
        // A late notice cannot say "today" or "in 7 days": it no longer knows how far off the day is.
        let when =
            switch daysBefore {
            case _ where lateSince != nil: "On \(occurrence.longDescription)."
            case 0: "Today, \(occurrence.longDescription)."
            case 1: "Tomorrow, \(occurrence.longDescription)."
            default: "In \(daysBefore) days, on \(occurrence.longDescription)."
            }
        if let lateSince {
            let due = CalendarDate(lateSince, in: timeZone)
            body = "\(when) Sent late: it was due on \(due.longDescription), while the server was not running."
        } else {
            body = when
        }
    }
}

/// A notification on the Notifications page.
public struct InAppNotification: Equatable, Sendable {
    public let id: Int
    public let title: String
    public let body: String
    public let contactID: Int?
    public let occurrence: CalendarDate?
    public let isLate: Bool
    public let createdAt: Date
    public let readAt: Date?

    public init(
        id: Int, title: String, body: String, contactID: Int?, occurrence: CalendarDate?, isLate: Bool, createdAt: Date,
        readAt: Date?
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.contactID = contactID
        self.occurrence = occurrence
        self.isLate = isLate
        self.createdAt = createdAt
        self.readAt = readAt
    }
}

/// One line of the delivery log of the outside channels.
public struct NotificationDelivery: Equatable, Sendable {
    public let channel: NotificationChannel
    public let title: String
    public let status: String
    public let detail: String?
    public let attempts: Int
    public let updatedAt: Date

    public init(
        channel: NotificationChannel, title: String, status: String, detail: String?, attempts: Int, updatedAt: Date
    ) {
        self.channel = channel
        self.title = title
        self.status = status
        self.detail = detail
        self.attempts = attempts
        self.updatedAt = updatedAt
    }
}
