import Foundation
import LocifyCore

/// `{is_age_based, is_year_unknown, date}`: how Monica writes birthdays, deceased and first-met dates.
public struct SpecialDateResource: Codable, Sendable, Equatable {
    @Nullable public var isAgeBased: Bool?
    @Nullable public var isYearUnknown: Bool?
    @Nullable public var date: String?

    enum CodingKeys: String, CodingKey {
        case isAgeBased = "is_age_based"
        case isYearUnknown = "is_year_unknown"
        case date
    }

    public static let absent = SpecialDateResource(isAgeBased: nil, isYearUnknown: nil, date: nil)

    public init(isAgeBased: Bool?, isYearUnknown: Bool?, date: String?) {
        self.isAgeBased = isAgeBased
        self.isYearUnknown = isYearUnknown
        self.date = date
    }

    public init(_ birthdate: Birthdate?, currentYear: Int) {
        guard let birthdate else {
            self = .absent
            return
        }
        self.init(
            isAgeBased: birthdate.isAgeBased, isYearUnknown: birthdate.isYearUnknown,
            date: birthdate.calendarDate(currentYear: currentYear).midnightTimestamp)
    }
}

public struct AvatarResource: Codable, Sendable, Equatable {
    @Nullable public var url: String?
    public var source: String
    public var defaultAvatarColor: String

    enum CodingKeys: String, CodingKey {
        case url, source
        case defaultAvatarColor = "default_avatar_color"
    }

    public init(url: String?, source: String, defaultAvatarColor: String) {
        self.url = url
        self.source = source
        self.defaultAvatarColor = defaultAvatarColor
    }
}

/// Monica's short contact, nested inside addresses, reminders and photos.
public struct ContactShortResource: Codable, Sendable, Equatable {
    public struct Information: Codable, Sendable, Equatable {
        public var birthdate: SpecialDateResource
        public var deceasedDate: SpecialDateResource
        public var avatar: AvatarResource

        enum CodingKeys: String, CodingKey {
            case birthdate
            case deceasedDate = "deceased_date"
            case avatar
        }
    }

    public var id: Int
    public var uuid: String
    public var object = "contact"
    public var hashID: String
    public var firstName: String
    @Nullable public var lastName: String?
    @Nullable public var nickname: String?
    public var completeName: String
    public var initials: String
    @Nullable public var gender: String?
    @Nullable public var genderType: String?
    public var isStarred: Bool
    public var isPartial: Bool
    public var isActive: Bool
    public var isDead: Bool
    public var isMe: Bool
    public var information: Information
    public var url: String
    public var account: AccountReference

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case hashID = "hash_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname
        case completeName = "complete_name"
        case initials, gender
        case genderType = "gender_type"
        case isStarred = "is_starred"
        case isPartial = "is_partial"
        case isActive = "is_active"
        case isDead = "is_dead"
        case isMe = "is_me"
        case information, url, account
    }

    public init(_ contact: Contact, url: String, avatar: AvatarResource, currentYear: Int) {
        self.init(ContactSummary(contact, url: url, avatar: avatar, currentYear: currentYear))
    }

    init(_ summary: ContactSummary) {
        id = summary.id
        uuid = summary.uuid
        hashID = summary.hashID
        firstName = summary.firstName
        lastName = summary.lastName
        nickname = summary.nickname
        completeName = summary.completeName
        initials = summary.initials
        gender = summary.gender
        genderType = summary.genderType
        isStarred = summary.isStarred
        isPartial = summary.isPartial
        isActive = summary.isActive
        isDead = summary.isDead
        isMe = summary.isMe
        information = Information(birthdate: summary.birthdate, deceasedDate: .absent, avatar: summary.avatar)
        self.url = summary.url
        account = summary.account
    }
}

/// What Monica's full and short contact shapes share, worked out once from a contact so the two
/// cannot drift apart.
struct ContactSummary {
    let id: Int
    let uuid: String
    let hashID: String
    let firstName: String
    let lastName: String?
    let nickname: String?
    let completeName: String
    let initials: String
    let gender: String?
    let genderType: String?
    let isStarred: Bool
    /// Locify has no partial contacts and no deceased ones.
    let isPartial = false
    let isActive: Bool
    let isDead = false
    let isMe: Bool
    let birthdate: SpecialDateResource
    let avatar: AvatarResource
    let url: String
    let account: AccountReference

    init(_ contact: Contact, url: String, avatar: AvatarResource, currentYear: Int) {
        id = contact.id
        uuid = contact.uuid.lowercasedText
        hashID = HashID.encode(contact.id)
        firstName = contact.fields.firstName
        lastName = contact.fields.lastName
        nickname = contact.fields.nickname
        completeName = contact.completeName
        initials = Avatar.monicaInitials(of: completeName)
        isMe = contact.isMe
        gender = contact.fields.gender?.name
        genderType = contact.fields.gender?.type
        isStarred = contact.fields.isStarred
        isActive = !contact.fields.isArchived
        birthdate = SpecialDateResource(contact.fields.birthdate, currentYear: currentYear)
        self.avatar = avatar
        self.url = url
        account = AccountReference(id: contact.ownerID)
    }
}

/// Monica's full contact. Keys and their order follow Monica 4.x; what Locify does not model yet is
/// null, empty or zero, as clients expect of an account that never used those features.
public struct ContactResource: Codable, Sendable, Equatable {
    public struct RelationshipGroup: Codable, Sendable, Equatable {
        public var total: Int
        public var contacts: [RelationshipShortResource]

        public static let empty = RelationshipGroup(total: 0, contacts: [])

        mutating func add(_ relationship: RelationshipShortResource) {
            contacts.append(relationship)
            total = contacts.count
        }
    }

    public struct Relationships: Codable, Sendable, Equatable {
        public var love = RelationshipGroup.empty
        public var family = RelationshipGroup.empty
        public var friend = RelationshipGroup.empty
        public var work = RelationshipGroup.empty

        public init() {}

        /// The contact's side of each relationship, with the other contact, sorted into their groups.
        public init(_ relationships: [(Relationship, ContactShortResource)]) {
            for (relationship, other) in relationships {
                let short = RelationshipShortResource(relationship, ofContact: other)
                switch relationship.type.group {
                case .love: love.add(short)
                case .family: family.add(short)
                case .friend: friend.add(short)
                case .work: work.add(short)
                }
            }
        }
    }

    public struct Dates: Codable, Sendable, Equatable {
        public var birthdate: SpecialDateResource
        public var deceasedDate: SpecialDateResource

        enum CodingKeys: String, CodingKey {
            case birthdate
            case deceasedDate = "deceased_date"
        }
    }

    public struct Career: Codable, Sendable, Equatable {
        @Nullable public var job: String?
        @Nullable public var company: String?
    }

    public struct HowYouMet: Codable, Sendable, Equatable {
        @Nullable public var generalInformation: String?
        public var firstMetDate: SpecialDateResource
        @Nullable public var firstMetThroughContact: ContactShortResource?

        enum CodingKeys: String, CodingKey {
            case generalInformation = "general_information"
            case firstMetDate = "first_met_date"
            case firstMetThroughContact = "first_met_through_contact"
        }
    }

    public struct Information: Codable, Sendable, Equatable {
        public var relationships: Relationships
        public var dates: Dates
        public var career: Career
        public var avatar: AvatarResource
        @Nullable public var foodPreferences: String?
        public var howYouMet: HowYouMet

        enum CodingKeys: String, CodingKey {
            case relationships, dates, career, avatar
            case foodPreferences = "food_preferences"
            case howYouMet = "how_you_met"
        }
    }

    public struct Statistics: Codable, Sendable, Equatable {
        public init(_ counts: ContactCounts = ContactCounts()) {
            numberOfCalls = counts.calls
            numberOfNotes = counts.notes
            numberOfReminders = counts.reminders
            numberOfTasks = counts.tasks
            numberOfDebts = counts.debts
            numberOfGifts = counts.gifts
            numberOfActivities = counts.activities
        }

        public var numberOfCalls = 0
        public var numberOfNotes = 0
        public var numberOfActivities = 0
        public var numberOfReminders = 0
        public var numberOfTasks = 0
        public var numberOfGifts = 0
        public var numberOfDebts = 0

        enum CodingKeys: String, CodingKey {
            case numberOfCalls = "number_of_calls"
            case numberOfNotes = "number_of_notes"
            case numberOfActivities = "number_of_activities"
            case numberOfReminders = "number_of_reminders"
            case numberOfTasks = "number_of_tasks"
            case numberOfGifts = "number_of_gifts"
            case numberOfDebts = "number_of_debts"
        }
    }

    public var id: Int
    public var uuid: String
    public var object = "contact"
    public var hashID: String
    public var firstName: String
    @Nullable public var lastName: String?
    @Nullable public var nickname: String?
    public var completeName: String
    public var initials: String
    @Nullable public var description: String?
    @Nullable public var gender: String?
    @Nullable public var genderType: String?
    public var isStarred: Bool
    public var isPartial: Bool
    public var isActive: Bool
    public var isDead: Bool
    public var isMe: Bool
    @Nullable public var lastCalled: String?
    @Nullable public var lastActivityTogether: String?
    @Nullable public var stayInTouchFrequency: Int?
    @Nullable public var stayInTouchTriggerDate: String?
    public var information: Information
    public var addresses: [AddressShortResource]
    public var tags: [TagResource]
    public var statistics: Statistics
    /// Every field of the contact, with `with=contactfields` only.
    public var contactFields: [ContactFieldResource]?
    /// The contact's three newest notes, with `with=contactfields` only.
    public var notes: [NoteResource]?
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    /// How many of its newest notes `with=contactfields` adds to a contact, as Monica does.
    public static let notesShown = 3

    /// What `with=contactfields` adds to a contact.
    public struct Extras: Sendable {
        public var contactFields: [ContactFieldResource]
        public var notes: [NoteResource]

        public init(contactFields: [ContactFieldResource], notes: [NoteResource]) {
            self.contactFields = contactFields
            self.notes = notes
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case hashID = "hash_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname
        case completeName = "complete_name"
        case initials, description, gender
        case genderType = "gender_type"
        case isStarred = "is_starred"
        case isPartial = "is_partial"
        case isActive = "is_active"
        case isDead = "is_dead"
        case isMe = "is_me"
        case lastCalled = "last_called"
        case lastActivityTogether = "last_activity_together"
        case stayInTouchFrequency = "stay_in_touch_frequency"
        case stayInTouchTriggerDate = "stay_in_touch_trigger_date"
        case information, addresses, tags, statistics, contactFields, notes, url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(
        _ contact: Contact, url: String, avatar: AvatarResource, currentYear: Int,
        addresses: [AddressShortResource] = [], tags: [Tag] = [], counts: ContactCounts = ContactCounts(),
        relationships: Relationships = Relationships(), metThrough: ContactShortResource? = nil, extras: Extras? = nil
    ) {
        let summary = ContactSummary(contact, url: url, avatar: avatar, currentYear: currentYear)
        id = summary.id
        uuid = summary.uuid
        hashID = summary.hashID
        firstName = summary.firstName
        lastName = summary.lastName
        nickname = summary.nickname
        completeName = summary.completeName
        initials = summary.initials
        description = contact.fields.description
        gender = summary.gender
        genderType = summary.genderType
        isStarred = summary.isStarred
        isPartial = summary.isPartial
        isActive = summary.isActive
        isDead = summary.isDead
        isMe = summary.isMe
        information = Information(
            relationships: relationships,
            dates: Dates(birthdate: summary.birthdate, deceasedDate: .absent),
            career: Career(job: contact.fields.job, company: contact.fields.company),
            avatar: summary.avatar,
            foodPreferences: contact.foodPreferences,
            howYouMet: HowYouMet(
                generalInformation: contact.introduction.story,
                firstMetDate: SpecialDateResource(contact.introduction.firstMet, currentYear: currentYear),
                firstMetThroughContact: metThrough))
        self.addresses = addresses
        self.tags = tags.map(TagResource.init)
        statistics = Statistics(counts)
        lastCalled = counts.lastCall.map(Timestamp.string)
        // Monica writes the day's midnight with microseconds.
        lastActivityTogether = counts.lastActivity.map { $0.description + "T00:00:00.000000Z" }
        contactFields = extras?.contactFields
        notes = extras?.notes
        self.url = summary.url
        account = summary.account
        createdAt = Timestamp.string(contact.createdAt)
        updatedAt = Timestamp.string(contact.updatedAt)
    }
}
