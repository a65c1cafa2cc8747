import Foundation

/// What a person wrote for a reminder, checked: a title, an optional description, and when it comes.
public struct ReminderFields: Equatable, Sendable {
    public var title: String
    public var description: String?
    public var schedule: ReminderSchedule

    public init(title: String, description: String?, schedule: ReminderSchedule) {
        self.title = title
        self.description = description
        self.schedule = schedule
    }
}

/// A stored reminder of one of the owner's contacts.
public struct Reminder: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var fields: ReminderFields
    /// Birthday reminders follow the birthday and cannot be deleted on their own (Monica's `delible`).
    public var isDelible: Bool
    /// When a one-time reminder was marked done; it then leaves the timeline and is no longer told.
    public var doneAt: Date?
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: ReminderFields, isDelible: Bool,
        doneAt: Date? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.doneAt = doneAt
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.fields = fields
        self.isDelible = isDelible
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The next occurrence on or after `today`; a one-time reminder keeps its date even when past (it
    /// is overdue, not gone).
    public func nextExpectedDate(today: CalendarDate) -> CalendarDate {
        fields.schedule.nextOccurrence(onOrAfter: today) ?? fields.schedule.initialDate
    }
}

/// A reminder as typed: text for the date and the frequency, checked all at once.
public struct ReminderDraft: Sendable {
    public var title: String?
    public var description: String?
    /// `YYYY-MM-DD`; a full ISO date-time is accepted and its date kept.
    public var initialDate: String?
    /// `one_time`, `week`, `month` or `year`.
    public var frequencyType: String?
    /// 1 to 1,000; 1 when left out.
    public var frequencyNumber: Int?

    public init(
        title: String? = nil, description: String? = nil, initialDate: String? = nil, frequencyType: String? = nil,
        frequencyNumber: Int? = nil
    ) {
        self.title = title
        self.description = description
        self.initialDate = initialDate
        self.frequencyType = frequencyType
        self.frequencyNumber = frequencyNumber
    }

    public static let maximumTitleLength = 1_000
    public static let maximumDescriptionLength = 10_000
    public static let frequencyNumbers = 1...1_000
    public static let frequencyTypes = ["one_time", "week", "month", "year"]

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "title": "Title", "description": "Description", "initial_date": "Date",
        "frequency_type": "Repeat", "frequency_number": "Every",
    ]

    /// The stored fields as a draft, so an update can change some keys and keep the rest.
    public init(_ fields: ReminderFields) {
        self.init(
            title: fields.title, description: fields.description, initialDate: fields.schedule.initialDate.description,
            frequencyType: fields.schedule.recurrence.frequencyType,
            frequencyNumber: fields.schedule.recurrence.frequencyNumber)
    }

    public func validated() throws(ValidationFailure) -> ReminderFields {
        var check = FieldChecker()
        let title = check.text(title, field: "title", label: "Title", limit: Self.maximumTitleLength)
        if title == nil { check.fail("title", "Title is required.") }
        let description = check.text(
            description, field: "description", label: "Description", limit: Self.maximumDescriptionLength)
        let dateText = initialDate?.trimmingCharacters(in: .whitespaces) ?? ""
        let date = CalendarDate(iso8601: dateText)
        if dateText.isEmpty {
            check.fail("initial_date", "Date is required.")
        } else if date == nil {
            check.fail("initial_date", "Date “\(dateText)” is not a day that exists, written as YYYY-MM-DD.")
        }
        let type = frequencyType?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if type.isEmpty {
            check.fail("frequency_type", "Say how often it repeats: one_time, week, month or year.")
        } else if !Self.frequencyTypes.contains(type) {
            check.fail("frequency_type", "Repeat must be one_time, week, month or year.")
        }
        let number = frequencyNumber ?? 1
        if !Self.frequencyNumbers.contains(number) {
            check.fail("frequency_number", "Every must be a whole number from 1 to 1,000.")
        }
        let recurrence = Recurrence(frequencyType: type, frequencyNumber: number)
        guard let title, let date, let recurrence else { throw ValidationFailure(check.errors) }
        return try check.finish(
            ReminderFields(
                title: title, description: description,
                schedule: ReminderSchedule(initialDate: date, recurrence: recurrence)))
    }
}

extension ReminderFields {
    /// The yearly reminder of a birthday: "Wish happy birthday to <first name>", on the birthday. A
    /// birthday without a year is placed in 2000, a leap year, so the 29th of February keeps its day.
    public static func birthday(of birthdate: Birthdate, firstName: String) -> ReminderFields? {
        yearly(on: birthdate, title: "Wish happy birthday to \(firstName)")
    }

    /// The yearly reminder of the day the owner met someone (Monica's "Anniversary of the day you first met").
    public static func firstMeeting(on day: Birthdate, firstName: String) -> ReminderFields? {
        yearly(on: day, title: "Anniversary of the day you met \(firstName)")
    }

    private static func yearly(on day: Birthdate, title: String) -> ReminderFields? {
        guard let date = CalendarDate(year: day.year ?? 2000, month: day.month, day: day.day) else { return nil }
        return ReminderFields(
            title: title, description: nil, schedule: ReminderSchedule(initialDate: date, recurrence: .years(1)))
    }
}

/// Monica's "upcoming" view: every occurrence of one month.
public enum UpcomingReminders {
    /// The days listed for the month `offset` months from `today`'s: this month's start today, so what
    /// is due today stays listed all day. nil for a month outside the calendar.
    public static func range(monthOffset offset: Int, today: CalendarDate) -> ClosedRange<CalendarDate>? {
        today.month(offsetBy: offset, from: offset == 0 ? today : nil)
    }

    /// Each occurrence in the month `offset` months from `today`'s, by date and then reminder id. This
    /// month's start today, so what is due today stays listed all day. nil for a month outside the calendar.
    public static func occurrences(
        of reminders: [Reminder], monthOffset offset: Int, today: CalendarDate
    ) -> [(date: CalendarDate, reminder: Reminder)]? {
        guard let range = range(monthOffset: offset, today: today) else { return nil }
        // Sorted as (date, position) pairs, so thousands of reminders are not copied about while sorting.
        var found: [(date: CalendarDate, position: Int)] = []
        for (position, reminder) in reminders.enumerated() {
            for date in reminder.fields.schedule.occurrences(in: range) { found.append((date, position)) }
        }
        found.sort { ($0.date, reminders[$0.position].id) < ($1.date, reminders[$1.position].id) }
        return found.map { (date: $0.date, reminder: reminders[$0.position]) }
    }
}

/// What timelines and schedules need of a reminder, read without its description, UUID and timestamps:
/// a user's every reminder is read for each timeline, and those columns were most of the reading.
public struct ReminderOutline: Equatable, Sendable {
    public let id: Int
    public let contactID: Int
    public var title: String
    public var schedule: ReminderSchedule
    public var isDelible: Bool
    public var doneAt: Date?

    public init(
        id: Int, contactID: Int, title: String, schedule: ReminderSchedule, isDelible: Bool, doneAt: Date?
    ) {
        self.id = id
        self.contactID = contactID
        self.title = title
        self.schedule = schedule
        self.isDelible = isDelible
        self.doneAt = doneAt
    }
}

extension Reminder {
    public var outline: ReminderOutline {
        ReminderOutline(
            id: id, contactID: contactID, title: fields.title, schedule: fields.schedule, isDelible: isDelible,
            doneAt: doneAt)
    }
}

extension ReminderOutline {
    public var placement: ReminderPlacement {
        ReminderPlacement(id: id, contactID: contactID, schedule: schedule, isDone: doneAt != nil)
    }
}

/// Only what places a reminder on a timeline: the API's timeline reads this of every reminder, and the
/// titles of the few it shows.
public struct ReminderPlacement: Equatable, Sendable {
    public let id: Int
    public let contactID: Int
    public var schedule: ReminderSchedule
    public var isDone: Bool

    public init(id: Int, contactID: Int, schedule: ReminderSchedule, isDone: Bool) {
        self.id = id
        self.contactID = contactID
        self.schedule = schedule
        self.isDone = isDone
    }
}

extension Timeline where Item == Int {
    /// The timeline of `reminders` (the web page's, which shows their titles), holding their positions.
    public static func of(_ reminders: [ReminderOutline], today: CalendarDate, weekStartsOn: Int) -> Timeline<Int> {
        of(reminders.map(\.placement), today: today, weekStartsOn: weekStartsOn)
    }

    /// The timeline of `placements`, holding their positions: ten thousand reminders are grouped and
    /// sorted without copying one.
    public static func of(_ placements: [ReminderPlacement], today: CalendarDate, weekStartsOn: Int)
        -> Timeline<Int>
    {
        Timeline(
            Array(placements.indices), today: today, weekStartsOn: weekStartsOn,
            schedule: { placements[$0].schedule }, isDone: { placements[$0].isDone })
    }
}
