import Foundation
import LocifyCore

/// Monica's life event category, one of the five defaults (`core_monica_data`).
public struct LifeEventCategoryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "lifeeventcategory"
    public var name: String
    public var coreMonicaData = true
    public var defaultLifeEventCategoryKey: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case coreMonicaData = "core_monica_data"
        case defaultLifeEventCategoryKey = "default_life_event_category_key"
        case account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `since` stamps the defaults: when the account was made, as Monica seeds them then.
    public init(_ category: LifeEventCategory, ownerID: Int, since: Date) {
        id = category.id
        name = category.label
        defaultLifeEventCategoryKey = category.key
        account = AccountReference(id: ownerID)
        createdAt = Timestamp.string(since)
        updatedAt = createdAt
    }
}

/// Monica's life event type, one of the 43 defaults.
public struct LifeEventTypeResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "lifeeventtype"
    public var name: String
    public var coreMonicaData = true
    public var defaultLifeEventTypeKey: String
    public var lifeEventCategory: LifeEventCategoryResource
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case coreMonicaData = "core_monica_data"
        case defaultLifeEventTypeKey = "default_life_event_type_key"
        case lifeEventCategory = "life_event_category"
        case account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ type: LifeEventType, ownerID: Int, since: Date) {
        id = type.id
        name = type.label
        defaultLifeEventTypeKey = type.key
        lifeEventCategory = LifeEventCategoryResource(type.category, ownerID: ownerID, since: since)
        account = AccountReference(id: ownerID)
        createdAt = Timestamp.string(since)
        updatedAt = createdAt
    }
}

/// Monica's life event, with `uuid` and `contact_id` as Locify's other records have them. `happened_at`
/// is the day's midnight UTC, as Monica writes it.
public struct LifeEventResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "lifeevent"
    @Nullable public var name: String?
    @Nullable public var note: String?
    public var happenedAt: String
    public var lifeEventType: LifeEventTypeResource
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, note
        case happenedAt = "happened_at"
        case lifeEventType = "life_event_type"
        case account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ event: LifeEvent, contact: ContactShortResource, typesSince: Date) {
        id = event.id
        uuid = event.uuid.lowercasedText
        name = event.fields.name
        note = event.fields.note
        happenedAt = event.fields.happenedOn.description + "T00:00:00Z"
        lifeEventType = LifeEventTypeResource(event.fields.type, ownerID: event.ownerID, since: typesSince)
        account = AccountReference(id: event.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(event.createdAt)
        updatedAt = Timestamp.string(event.updatedAt)
        contactID = event.contactID
    }
}

/// The body of the life event routes, read leniently like `ContactInput`.
public struct LifeEventInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = LifeEventDraft()
    /// Monica's `has_reminder`: also remind of the event every year.
    public private(set) var hasReminder = false
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: LifeEventDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: LifeEventDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.typeID = reader.integer("life_event_type_id")
        draft.happenedAt = reader.string("happened_at")
        draft.name = reader.string("name")
        draft.note = reader.string("note")
        hasReminder = reader.boolean("has_reminder") ?? false
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: LifeEventDraft) -> LifeEventDraft {
        var result = existing
        if presentKeys.contains("life_event_type_id") { result.typeID = draft.typeID }
        if presentKeys.contains("happened_at") { result.happenedAt = draft.happenedAt }
        if presentKeys.contains("name") { result.name = draft.name }
        if presentKeys.contains("note") { result.note = draft.note }
        return result
    }
}
