import Foundation

/// A group of activity types; each account starts with Monica's four and may change them.
public struct ActivityTypeCategory: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var name: String
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: Int, uuid: UUID, ownerID: Int, name: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's defaults for a new account: each category with its types, in Monica's order.
    public static let defaults: [(category: String, types: [String])] = [
        ("Simple activities", ["just hung out", "watched a movie at home", "just talked at home"]),
        ("Sport", ["played a sport together"]),
        ("Food", ["ate at their place", "went to a bar", "ate at home", "picnicked", "ate at a restaurant"]),
        ("Cultural activities", ["went to the theater", "went to a concert", "went to a play", "went to the museum"]),
    ]

    public static let maximumNameLength = 255

    /// A category's or a type's name, checked.
    public static func validatedName(_ name: String?) throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let trimmed = check.text(name, field: "name", label: "Name", limit: maximumNameLength)
        guard let trimmed else {
            check.fail("name", "The name is required.")
            throw ValidationFailure(check.errors)
        }
        return try check.finish(trimmed)
    }
}

/// What kind of thing was done together, in one of the owner's categories.
public struct ActivityType: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var categoryID: Int
    public var name: String
    /// Monica's `location_type`, free text it never sets itself.
    public var locationType: String?
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, categoryID: Int, name: String, locationType: String?, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.categoryID = categoryID
        self.name = name
        self.locationType = locationType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Something done with one or more contacts, checked.
public struct ActivityFields: Equatable, Sendable {
    public var summary: String
    public var description: String?
    public var happenedOn: CalendarDate
    public var typeID: Int?
    public var emotions: [Emotion]
    /// The contacts who were there, in the order given.
    public var attendeeIDs: [Int]

    public init(
        summary: String, description: String? = nil, happenedOn: CalendarDate, typeID: Int? = nil,
        emotions: [Emotion] = [], attendeeIDs: [Int]
    ) {
        self.summary = summary
        self.description = description
        self.happenedOn = happenedOn
        self.typeID = typeID
        self.emotions = emotions
        self.attendeeIDs = attendeeIDs
    }
}

/// A stored activity of the owner.
public struct Activity: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var fields: ActivityFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: Int, uuid: UUID, ownerID: Int, fields: ActivityFields, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An activity as typed.
public struct ActivityDraft: Sendable {
    public var summary: String?
    public var description: String?
    public var happenedAt: String?
    public var typeID: Int?
    public var emotionIDs: [Int]?
    public var attendeeIDs: [Int]?

    public init(
        summary: String? = nil, description: String? = nil, happenedAt: String? = nil, typeID: Int? = nil,
        emotionIDs: [Int]? = nil, attendeeIDs: [Int]? = nil
    ) {
        self.summary = summary
        self.description = description
        self.happenedAt = happenedAt
        self.typeID = typeID
        self.emotionIDs = emotionIDs
        self.attendeeIDs = attendeeIDs
    }

    public init(_ fields: ActivityFields) {
        self.init(
            summary: fields.summary, description: fields.description, happenedAt: fields.happenedOn.description,
            typeID: fields.typeID, emotionIDs: fields.emotions.map(\.id), attendeeIDs: fields.attendeeIDs)
    }

    public static let maximumSummaryLength = 255
    /// 100,000 characters (Monica takes 1,000,000): written as JSON escapes, the longest still fits a 2 MB
    /// body with the rest of the record (`BodyLimit.longText`).
    public static let maximumDescriptionLength = 100_000

    public static let fieldLabels: [String: String] = [
        "summary": "Summary", "description": "Description", "happened_at": "Date",
        "activity_type_id": "Kind of activity", "emotions": "Emotions", "contacts": "Who was there",
    ]

    /// Whether the type and the contacts are the owner's is the service's to ask.
    public func validated() throws(ValidationFailure) -> ActivityFields {
        var check = FieldChecker()
        let summary = check.text(summary, field: "summary", label: "Summary", limit: Self.maximumSummaryLength)
        if summary == nil { check.fail("summary", "The summary is required.") }
        let description = check.text(
            description, field: "description", label: "Description", limit: Self.maximumDescriptionLength)
        var day: CalendarDate?
        if let text = happenedAt?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            day = MomentText.day(from: text)
            if day == nil { check.fail("happened_at", "The date of the activity is not a valid date.") }
        } else {
            check.fail("happened_at", "The date of the activity is required.")
        }
        var attendees: [Int] = []
        for id in attendeeIDs ?? [] where !attendees.contains(id) { attendees.append(id) }
        if attendees.isEmpty { check.fail("contacts", "Choose who was there (contacts).") }
        var emotions: [Emotion] = []
        for id in emotionIDs ?? [] where !emotions.contains(where: { $0.id == id }) {
            guard let emotion = Emotion.emotion(id) else {
                check.fail("emotions", "The selected emotion \(id) is invalid.")
                continue
            }
            emotions.append(emotion)
        }
        guard let summary, let day else { throw ValidationFailure(check.errors) }
        return try check.finish(
            ActivityFields(
                summary: summary, description: description, happenedOn: day, typeID: typeID, emotions: emotions,
                attendeeIDs: attendees))
    }
}
