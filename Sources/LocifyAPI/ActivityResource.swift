import Foundation
import LocifyCore

/// Monica's activity type category (`activityTypeCategory`).
public struct ActivityTypeCategoryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "activityTypeCategory"
    public var name: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ category: ActivityTypeCategory) {
        id = category.id
        uuid = category.uuid.lowercasedText
        name = category.name
        account = AccountReference(id: category.ownerID)
        createdAt = Timestamp.string(category.createdAt)
        updatedAt = Timestamp.string(category.updatedAt)
    }
}

/// Monica's activity type (`activityType`), with its category.
public struct ActivityTypeResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "activityType"
    public var name: String
    @Nullable public var locationType: String?
    public var activityTypeCategory: ActivityTypeCategoryResource
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name
        case locationType = "location_type"
        case activityTypeCategory = "activity_type_category"
        case account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ type: ActivityType, category: ActivityTypeCategory) {
        id = type.id
        uuid = type.uuid.lowercasedText
        name = type.name
        locationType = type.locationType
        activityTypeCategory = ActivityTypeCategoryResource(category)
        account = AccountReference(id: type.ownerID)
        createdAt = Timestamp.string(type.createdAt)
        updatedAt = Timestamp.string(type.updatedAt)
    }
}

/// Monica's activity: `happened_at` is the day (`2018-05-01`), `attendees` who was there.
public struct ActivityResource: Codable, Sendable, Equatable {
    public struct Attendees: Codable, Sendable, Equatable {
        public var total: Int
        public var contacts: [ContactShortResource]
    }

    public var id: Int
    public var uuid: String
    public var object = "activity"
    public var summary: String
    @Nullable public var description: String?
    public var happenedAt: String
    @Nullable public var activityType: ActivityTypeResource?
    public var attendees: Attendees
    public var emotions: [EmotionResource]
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, summary, description
        case happenedAt = "happened_at"
        case activityType = "activity_type"
        case attendees, emotions, url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(
        _ activity: Activity, url: String, type: ActivityTypeResource?, attendees: [ContactShortResource]
    ) {
        id = activity.id
        uuid = activity.uuid.lowercasedText
        summary = activity.fields.summary
        description = activity.fields.description
        happenedAt = activity.fields.happenedOn.description
        activityType = type
        self.attendees = Attendees(total: attendees.count, contacts: attendees)
        emotions = activity.fields.emotions.map(EmotionResource.init)
        self.url = url
        account = AccountReference(id: activity.ownerID)
        createdAt = Timestamp.string(activity.createdAt)
        updatedAt = Timestamp.string(activity.updatedAt)
    }
}

/// The body of the activity routes, read leniently like `ContactInput`.
public struct ActivityInput: Decodable, Sendable {
    public private(set) var draft = ActivityDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ActivityDraft.fieldLabels)
        draft.summary = reader.string("summary")
        draft.description = reader.string("description")
        draft.happenedAt = reader.string("happened_at")
        draft.typeID = reader.integer("activity_type_id")
        draft.emotionIDs = reader.integerList("emotions")
        draft.attendeeIDs = reader.integerList("contacts")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores (Monica requires them all again).
    public func merged(into existing: ActivityDraft) -> ActivityDraft {
        var result = existing
        if presentKeys.contains("summary") { result.summary = draft.summary }
        if presentKeys.contains("description") { result.description = draft.description }
        if presentKeys.contains("happened_at") { result.happenedAt = draft.happenedAt }
        if presentKeys.contains("activity_type_id") { result.typeID = draft.typeID }
        if presentKeys.contains("emotions") { result.emotionIDs = draft.emotionIDs ?? [] }
        if presentKeys.contains("contacts") { result.attendeeIDs = draft.attendeeIDs ?? [] }
        return result
    }
}

/// The body of the activity type and category routes. A key left out is `.none`.
public struct ActivityTypeInput: Decodable, Sendable {
    public private(set) var name: String?? = .none
    public private(set) var categoryID: Int?? = .none
    public private(set) var locationType: String?? = .none
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(
            container: container,
            labels: ["name": "Name", "activity_type_category_id": "Category", "location_type": "Location type"])
        if container.contains(LenientKey(stringValue: "name")) { name = .some(reader.string("name")) }
        if container.contains(LenientKey(stringValue: "activity_type_category_id")) {
            categoryID = .some(reader.integer("activity_type_category_id"))
        }
        if container.contains(LenientKey(stringValue: "location_type")) {
            locationType = .some(reader.string("location_type"))
        }
        typeErrors = reader.errors
    }
}
