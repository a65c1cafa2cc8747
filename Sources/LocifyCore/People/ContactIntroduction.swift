import Foundation

/// How the owner met a contact (Monica's `how_you_met`), checked.
public struct ContactIntroduction: Hashable, Sendable {
    /// Monica's `general_information`: the story, as the owner tells it.
    public var story: String?
    /// Monica's `where`.
    public var place: String?
    /// The day they met: with or without its year, or a year worked out from an age.
    public var firstMet: Birthdate?
    /// Another of the owner's contacts who introduced them.
    public var throughContactID: Int?

    public init(story: String? = nil, place: String? = nil, firstMet: Birthdate? = nil, throughContactID: Int? = nil) {
        self.story = story
        self.place = place
        self.firstMet = firstMet
        self.throughContactID = throughContactID
    }

    public static let unknown = ContactIntroduction()

    public var isUnknown: Bool { self == .unknown }
}

/// How the owner met a contact, as typed: Monica's `PUT /api/contacts/{id}/introduction` replaces all of it.
public struct ContactIntroductionDraft: Sendable {
    public var throughContactID: Int?
    public var story: String?
    public var place: String?
    /// false forgets the day; nil decides from the other fields, as a contact's birthday does (Monica
    /// requires it).
    public var isDateKnown: Bool?
    public var isAgeBased: Bool?
    public var day: Int?
    public var month: Int?
    public var year: Int?
    public var age: Int?

    public init(
        throughContactID: Int? = nil, story: String? = nil, place: String? = nil, isDateKnown: Bool? = nil,
        isAgeBased: Bool? = nil, day: Int? = nil, month: Int? = nil, year: Int? = nil, age: Int? = nil
    ) {
        self.throughContactID = throughContactID
        self.story = story
        self.place = place
        self.isDateKnown = isDateKnown
        self.isAgeBased = isAgeBased
        self.day = day
        self.month = month
        self.year = year
        self.age = age
    }

    /// Monica's `max:65535`.
    public static let maximumStoryLength = 65_535
    public static let maximumPlaceLength = 255

    public static let fieldLabels: [String: String] = [
        "met_through_contact_id": "Met through", "general_information": "How you met", "where": "Where",
        "is_date_known": "Date known", "is_age_based": "Age-based date", "day": "Day", "month": "Month",
        "year": "Year", "age": "Age", "add_reminder": "Reminder",
    ]

    /// `today` is the owner's current day: it bounds the year and turns an age into one.
    public func validated(today: CalendarDate) throws(ValidationFailure) -> ContactIntroduction {
        var check = FieldChecker()
        let story = check.text(
            story, field: "general_information", label: "How you met", limit: Self.maximumStoryLength)
        let place = check.text(place, field: "where", label: "Where", limit: Self.maximumPlaceLength)
        let firstMet = SpecialDateDraft(
            isKnown: isDateKnown, day: day, month: month, year: year, isAgeBased: isAgeBased ?? false, age: age
        ).checked(
            today: today,
            naming: .init(
                day: "day", month: "month", year: "year", age: "age", label: "First meeting", yearLabel: "Year"),
            check: &check)
        return try check.finish(
            ContactIntroduction(story: story, place: place, firstMet: firstMet, throughContactID: throughContactID))
    }
}
