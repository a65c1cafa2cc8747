import Foundation

/// The five groups of Monica's default life event types, the same ids everywhere.
public enum LifeEventCategory: Int, CaseIterable, Sendable {
    case workEducation = 1
    case familyRelationships
    case homeLiving
    case healthWellness
    case travelExperiences

    public var id: Int { rawValue }

    /// Monica's key (`work_education`).
    public var key: String {
        switch self {
        case .workEducation: "work_education"
        case .familyRelationships: "family_relationships"
        case .homeLiving: "home_living"
        case .healthWellness: "health_wellness"
        case .travelExperiences: "travel_experiences"
        }
    }

    public var label: String {
        switch self {
        case .workEducation: "Work and education"
        case .familyRelationships: "Family and relationships"
        case .homeLiving: "Home and living"
        case .healthWellness: "Health and wellness"
        case .travelExperiences: "Travel and experiences"
        }
    }
}

/// What happened: Monica's 43 default life event types (`default_life_event_types`), in their order, so
/// the ids are Monica's. Monica's API offers no route to add one.
public struct LifeEventType: Equatable, Sendable {
    public let id: Int
    /// Monica's key (`new_job`).
    public let key: String
    public let category: LifeEventCategory
    /// How a person reads it ("New job").
    public var label: String {
        switch key {
        case "wear_glass_or_contact": "New glasses or contacts"
        case "tattoo_or_piercing": "Tattoo or piercing"
        default: key.prefix(1).uppercased() + key.dropFirst().replacingOccurrences(of: "_", with: " ")
        }
    }

    public static let all: [LifeEventType] = {
        let groups: [(LifeEventCategory, [String])] = [
            (
                .workEducation,
                [
                    "new_job", "retirement", "new_school", "study_abroad", "volunteer_work", "published_book_or_paper",
                    "military_service",
                ]
            ),
            (
                .familyRelationships,
                [
                    "new_relationship", "engagement", "marriage", "anniversary", "expecting_a_baby", "new_child",
                    "new_family_member", "new_pet", "end_of_relationship", "loss_of_a_loved_one",
                ]
            ),
            (.homeLiving, ["moved", "bought_a_home", "home_improvement", "holidays", "new_vehicle", "new_roommate"]),
            (
                .healthWellness,
                [
                    "overcame_an_illness", "quit_a_habit", "new_eating_habits", "weight_loss", "wear_glass_or_contact",
                    "broken_bone", "removed_braces", "surgery", "dentist",
                ]
            ),
            (
                .travelExperiences,
                [
                    "new_sport", "new_hobby", "new_instrument", "new_language", "tattoo_or_piercing", "new_license",
                    "travel", "achievement_or_award", "changed_beliefs", "first_word", "first_kiss",
                ]
            ),
        ]
        var types: [LifeEventType] = []
        for (category, keys) in groups {
            for key in keys { types.append(LifeEventType(id: types.count + 1, key: key, category: category)) }
        }
        return types
    }()

    public static func type(_ id: Int) -> LifeEventType? {
        guard (1...all.count).contains(id) else { return nil }
        return all[id - 1]
    }
}

/// Something that happened in a contact's life, checked.
public struct LifeEventFields: Equatable, Sendable {
    public var type: LifeEventType
    public var happenedOn: CalendarDate
    public var name: String?
    public var note: String?

    public init(type: LifeEventType, happenedOn: CalendarDate, name: String? = nil, note: String? = nil) {
        self.type = type
        self.happenedOn = happenedOn
        self.name = name
        self.note = note
    }

    /// The event's own name, else its type's.
    public var title: String { name ?? type.label }
}

/// A stored life event of one of the owner's contacts.
public struct LifeEvent: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public var fields: LifeEventFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: LifeEventFields, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A life event as typed.
public struct LifeEventDraft: Sendable {
    public var typeID: Int?
    /// A day (`2024-05-01`) or a date-time whose UTC day is taken.
    public var happenedAt: String?
    public var name: String?
    public var note: String?

    public init(typeID: Int? = nil, happenedAt: String? = nil, name: String? = nil, note: String? = nil) {
        self.typeID = typeID
        self.happenedAt = happenedAt
        self.name = name
        self.note = note
    }

    public init(_ fields: LifeEventFields) {
        self.init(
            typeID: fields.type.id, happenedAt: fields.happenedOn.description, name: fields.name, note: fields.note)
    }

    public static let maximumNameLength = 255
    /// 100,000 characters (Monica takes 1,000,000): written as JSON escapes, the longest still fits a 2 MB
    /// body with the rest of the record (`BodyLimit.longText`).
    public static let maximumNoteLength = 100_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "life_event_type_id": "Kind of event", "happened_at": "Date", "name": "Name",
        "note": "Note", "has_reminder": "Yearly reminder",
    ]

    public func validated() throws(ValidationFailure) -> LifeEventFields {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        let note = check.text(note, field: "note", label: "Note", limit: Self.maximumNoteLength)
        var type: LifeEventType?
        if let typeID {
            type = LifeEventType.type(typeID)
            if type == nil { check.fail("life_event_type_id", "The selected life event type id is invalid.") }
        } else {
            check.fail("life_event_type_id", "Choose the kind of event.")
        }
        var day: CalendarDate?
        if let text = happenedAt?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            day = MomentText.day(from: text)
            if day == nil { check.fail("happened_at", "The date of the event is not a valid date.") }
        } else {
            check.fail("happened_at", "The date of the event is required.")
        }
        guard let type, let day else { throw ValidationFailure(check.errors) }
        return try check.finish(LifeEventFields(type: type, happenedOn: day, name: name, note: note))
    }
}
