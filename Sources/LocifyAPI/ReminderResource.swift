import Foundation
import LocifyCore

/// Monica's reminder, with Locify's `contact_id` and `next_expected_date` after its keys.
public struct ReminderResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "reminder"
    public var title: String
    @Nullable public var description: String?
    public var frequencyType: String
    public var frequencyNumber: Int
    public var initialDate: String
    public var delible: Bool
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int
    public var nextExpectedDate: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, title, description
        case frequencyType = "frequency_type"
        case frequencyNumber = "frequency_number"
        case initialDate = "initial_date"
        case delible, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
        case nextExpectedDate = "next_expected_date"
    }

    /// `today` is the owner's day, in their timezone.
    public init(_ reminder: Reminder, contact: ContactShortResource, today: CalendarDate) {
        id = reminder.id
        uuid = reminder.uuid.lowercasedText
        title = reminder.fields.title
        description = reminder.fields.description
        frequencyType = reminder.fields.schedule.recurrence.frequencyType
        frequencyNumber = reminder.fields.schedule.recurrence.frequencyNumber
        initialDate = reminder.fields.schedule.initialDate.midnightTimestamp
        delible = reminder.isDelible
        account = AccountReference(id: reminder.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(reminder.createdAt)
        updatedAt = Timestamp.string(reminder.updatedAt)
        contactID = reminder.contactID
        nextExpectedDate = reminder.nextExpectedDate(today: today).midnightTimestamp
    }
}

/// One occurrence in `GET /api/reminders/upcoming/{month}`. `id` is the reminder's id (Monica used a
/// queue row's, which clients mistook for the reminder's).
public struct UpcomingReminderResource: Codable, Sendable, Equatable {
    public var id: Int
    public var reminderID: Int
    public var object = "reminder"
    public var plannedDate: String
    public var title: String
    @Nullable public var description: String?
    public var frequencyType: String
    public var frequencyNumber: Int
    public var initialDate: String
    public var delible: Bool
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id
        case reminderID = "reminder_id"
        case object
        case plannedDate = "planned_date"
        case title, description
        case frequencyType = "frequency_type"
        case frequencyNumber = "frequency_number"
        case initialDate = "initial_date"
        case delible, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ reminder: Reminder, on date: CalendarDate, contact: ContactShortResource) {
        id = reminder.id
        reminderID = reminder.id
        plannedDate = date.midnightTimestamp
        title = reminder.fields.title
        description = reminder.fields.description
        frequencyType = reminder.fields.schedule.recurrence.frequencyType
        frequencyNumber = reminder.fields.schedule.recurrence.frequencyNumber
        initialDate = reminder.fields.schedule.initialDate.midnightTimestamp
        delible = reminder.isDelible
        account = AccountReference(id: reminder.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(reminder.createdAt)
        updatedAt = Timestamp.string(reminder.updatedAt)
    }
}

/// The body of the reminder routes, read leniently like `ContactInput`.
public struct ReminderInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = ReminderDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: ReminderDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ReminderDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.title = reader.string("title")
        draft.description = reader.string("description")
        draft.initialDate = reader.string("initial_date")
        draft.frequencyType = reader.string("frequency_type")
        draft.frequencyNumber = reader.integer("frequency_number")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: ReminderDraft) -> ReminderDraft {
        var result = existing
        func take<Value>(_ key: String, _ path: WritableKeyPath<ReminderDraft, Value>) {
            if presentKeys.contains(key) { result[keyPath: path] = draft[keyPath: path] }
        }
        take("title", \.title)
        take("description", \.description)
        take("initial_date", \.initialDate)
        take("frequency_type", \.frequencyType)
        take("frequency_number", \.frequencyNumber)
        return result
    }
}

/// `GET /api/reminders/timeline` (Locify's own): what is coming, grouped the way people scan it.
public struct ReminderTimelineResource: Codable, Sendable, Equatable {
    public struct ContactSummary: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var avatar: AvatarResource

        public init(id: Int, name: String, avatar: AvatarResource) {
            self.id = id
            self.name = name
            self.avatar = avatar
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public var reminderID: Int
        public var title: String
        /// The occurrence shown, `YYYY-MM-DD`: the next one, or the missed date of an overdue one.
        public var date: String
        public var frequencyType: String
        public var frequencyNumber: Int
        public var contact: ContactSummary

        enum CodingKeys: String, CodingKey {
            case reminderID = "reminder_id"
            case title, date
            case frequencyType = "frequency_type"
            case frequencyNumber = "frequency_number"
            case contact
        }
    }

    /// A group's count is all of its reminders; its items are the first `limit` of them (a window, so a
    /// timeline of ten thousand reminders stays small), and `nextPage` the page of the group after them.
    public struct Group: Codable, Sendable, Equatable {
        public var count: Int
        public var items: [Item]
        @Nullable public var nextPage: String?

        enum CodingKeys: String, CodingKey {
            case count, items
            case nextPage = "next_page"
        }
    }

    /// The summary's default and largest number of items a group shows.
    public static let defaultLimit = 100

    public var overdue: Group
    public var today: Group
    public var thisWeek: Group
    public var thisMonth: Group
    public var later: Group

    enum CodingKeys: String, CodingKey {
        case overdue, today
        case thisWeek = "this_week"
        case thisMonth = "this_month"
        case later
    }

    /// `timeline` holds positions, and `reminder` gives the reminder at one (only the items shown are
    /// asked for); `contact` gives each reminder's contact as the item shows it. Each group shows its first
    /// `limit` items; `nextPage` gives the URL of a group's second page.
    public init(
        _ timeline: Timeline<Int>, reminder: (Int) -> ReminderOutline?, limit: Int = defaultLimit,
        nextPage: (Timeline<Int>.Group) -> String, contact: (ReminderOutline) -> ContactSummary?
    ) {
        func group(_ name: Timeline<Int>.Group) -> Group {
            let entries = timeline[name]
            let items = Self.items(entries.prefix(limit), reminder: reminder, contact: contact)
            return Group(count: entries.count, items: items, nextPage: entries.count > limit ? nextPage(name) : nil)
        }
        overdue = group(.overdue)
        today = group(.today)
        thisWeek = group(.thisWeek)
        thisMonth = group(.thisMonth)
        later = group(.later)
    }

    /// The items of `entries`, leaving out a reminder gone since the timeline was read or whose contact is
    /// not known.
    public static func items(
        _ entries: some Sequence<Timeline<Int>.Entry>, reminder: (Int) -> ReminderOutline?,
        contact: (ReminderOutline) -> ContactSummary?
    ) -> [Item] {
        entries.compactMap { entry -> Item? in
            guard let reminder = reminder(entry.item), let person = contact(reminder) else { return nil }
            let recurrence = reminder.schedule.recurrence
            return Item(
                reminderID: reminder.id, title: reminder.title, date: entry.date.description,
                frequencyType: recurrence.frequencyType, frequencyNumber: recurrence.frequencyNumber,
                contact: person)
        }
    }
}

/// `GET /api/reminders/feed`: where a calendar app subscribes to the user's reminders.
public struct ReminderFeedResource: Codable, Equatable, Sendable {
    public let url: String

    public init(url: String) {
        self.url = url
    }
}
