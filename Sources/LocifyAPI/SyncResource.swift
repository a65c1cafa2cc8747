import Foundation
import LocifyCore

/// A record as the sync feed carries it: the resource exactly as its own route answers it, under the
/// resource's Monica `object` name (`SyncChangeResource.type`).
public enum SyncRecord: Codable, Sendable, Equatable {
    case contact(ContactResource)
    case address(AddressResource)
    case contactField(ContactFieldResource)
    case contactFieldType(ContactFieldTypeResource)
    case note(NoteResource)
    case task(TaskResource)
    case reminder(ReminderResource)
    case photo(PhotoResource)
    case gender(GenderResource)
    case tag(TagResource)
    case contactTag(ContactTagResource)
    case place(PlaceResource)
    case category(PlaceCategoryResource)
    case call(CallResource)
    case journalEntry(JournalEntryResource)
    case relationship(RelationshipResource)
    case debt(DebtResource)
    case gift(GiftResource)
    case pet(PetResource)
    case lifeEvent(LifeEventResource)
    case conversation(ConversationResource)
    case activity(ActivityResource)
    case activityType(ActivityTypeResource)
    case activityTypeCategory(ActivityTypeCategoryResource)
    case company(CompanyResource)
    case occupation(OccupationResource)
    case document(DocumentResource)
    case placeComment(PlaceCommentResource)
    case placePhoto(PlacePhotoResource)

    /// The `type` a change of this record carries.
    public var type: String {
        switch self {
        case .contact: "contact"
        case .address: "address"
        case .contactField: "contactfield"
        case .contactFieldType: "contactfieldtype"
        case .note: "note"
        case .task: "task"
        case .reminder: "reminder"
        case .photo: "photo"
        case .gender: "gender"
        case .tag: "tag"
        case .contactTag: "contact_tag"
        case .place: "place"
        case .category: "category"
        case .call: "call"
        case .journalEntry: "entry"
        case .relationship: "relationship"
        case .debt: "debt"
        case .gift: "gift"
        case .pet: "pet"
        case .lifeEvent: "lifeevent"
        case .conversation: "conversation"
        case .activity: "activity"
        case .activityType: "activitytype"
        case .activityTypeCategory: "activitytypecategory"
        case .company: "company"
        case .occupation: "occupation"
        case .document: "document"
        case .placeComment: "place_comment"
        case .placePhoto: "place_photo"
        }
    }

    /// Every `type` the feed carries, in the order a revision's changes come.
    public static let types = [
        "gender", "contactfieldtype", "tag", "category", "company", "contact", "address", "contactfield", "note",
        "task", "reminder", "photo", "document", "contact_tag", "place", "place_photo", "place_comment", "call",
        "entry",
        "relationship", "debt", "gift", "pet", "lifeevent", "conversation", "occupation", "activitytypecategory",
        "activitytype", "activity",
    ]

    /// Reads the record a change of `type` carries.
    public init(type: String, from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        switch type {
        case "contact": self = .contact(try container.decode(ContactResource.self))
        case "address": self = .address(try container.decode(AddressResource.self))
        case "contactfield": self = .contactField(try container.decode(ContactFieldResource.self))
        case "contactfieldtype": self = .contactFieldType(try container.decode(ContactFieldTypeResource.self))
        case "note": self = .note(try container.decode(NoteResource.self))
        case "task": self = .task(try container.decode(TaskResource.self))
        case "reminder": self = .reminder(try container.decode(ReminderResource.self))
        case "photo": self = .photo(try container.decode(PhotoResource.self))
        case "gender": self = .gender(try container.decode(GenderResource.self))
        case "tag": self = .tag(try container.decode(TagResource.self))
        case "contact_tag": self = .contactTag(try container.decode(ContactTagResource.self))
        case "place": self = .place(try container.decode(PlaceResource.self))
        case "category": self = .category(try container.decode(PlaceCategoryResource.self))
        case "call": self = .call(try container.decode(CallResource.self))
        case "entry": self = .journalEntry(try container.decode(JournalEntryResource.self))
        case "relationship": self = .relationship(try container.decode(RelationshipResource.self))
        case "debt": self = .debt(try container.decode(DebtResource.self))
        case "gift": self = .gift(try container.decode(GiftResource.self))
        case "pet": self = .pet(try container.decode(PetResource.self))
        case "lifeevent": self = .lifeEvent(try container.decode(LifeEventResource.self))
        case "conversation": self = .conversation(try container.decode(ConversationResource.self))
        case "activity": self = .activity(try container.decode(ActivityResource.self))
        case "activitytype": self = .activityType(try container.decode(ActivityTypeResource.self))
        case "activitytypecategory":
            self = .activityTypeCategory(try container.decode(ActivityTypeCategoryResource.self))
        case "company": self = .company(try container.decode(CompanyResource.self))
        case "occupation": self = .occupation(try container.decode(OccupationResource.self))
        case "document": self = .document(try container.decode(DocumentResource.self))
        case "place_comment": self = .placeComment(try container.decode(PlaceCommentResource.self))
        case "place_photo": self = .placePhoto(try container.decode(PlacePhotoResource.self))
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(type) is not a type the sync feed carries")
        }
    }

    /// A record decoded alone is read by its `object` key.
    public init(from decoder: any Decoder) throws {
        struct Object: Decodable { let object: String }
        try self.init(type: try Object(from: decoder).object, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .contact(let resource): try container.encode(resource)
        case .address(let resource): try container.encode(resource)
        case .contactField(let resource): try container.encode(resource)
        case .contactFieldType(let resource): try container.encode(resource)
        case .note(let resource): try container.encode(resource)
        case .task(let resource): try container.encode(resource)
        case .reminder(let resource): try container.encode(resource)
        case .photo(let resource): try container.encode(resource)
        case .gender(let resource): try container.encode(resource)
        case .tag(let resource): try container.encode(resource)
        case .contactTag(let resource): try container.encode(resource)
        case .place(let resource): try container.encode(resource)
        case .category(let resource): try container.encode(resource)
        case .call(let resource): try container.encode(resource)
        case .journalEntry(let resource): try container.encode(resource)
        case .relationship(let resource): try container.encode(resource)
        case .debt(let resource): try container.encode(resource)
        case .gift(let resource): try container.encode(resource)
        case .pet(let resource): try container.encode(resource)
        case .lifeEvent(let resource): try container.encode(resource)
        case .conversation(let resource): try container.encode(resource)
        case .activity(let resource): try container.encode(resource)
        case .activityType(let resource): try container.encode(resource)
        case .activityTypeCategory(let resource): try container.encode(resource)
        case .company(let resource): try container.encode(resource)
        case .occupation(let resource): try container.encode(resource)
        case .document(let resource): try container.encode(resource)
        case .placeComment(let resource): try container.encode(resource)
        case .placePhoto(let resource): try container.encode(resource)
        }
    }
}

/// A tag on a contact, as the sync feed carries the link (Monica has no route of its own for it).
public struct ContactTagResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "contact_tag"
    public var contactID: Int
    public var tagID: Int
    public var account: AccountReference
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case contactID = "contact_id"
        case tagID = "tag_id"
        case account
        case createdAt = "created_at"
    }

    public init(id: Int, uuid: UUID, contactID: Int, tagID: Int, ownerID: Int, createdAt: Date) {
        self.id = id
        self.uuid = uuid.uuidString.lowercased()
        self.contactID = contactID
        self.tagID = tagID
        account = AccountReference(id: ownerID)
        self.createdAt = Timestamp.string(createdAt)
    }
}

/// One changed record of `GET /api/sync`: its type, identity, the revision of its last change, and the
/// record as its own route answers it now.
public struct SyncChangeResource: Codable, Sendable, Equatable {
    public var type: String
    public var uuid: String
    public var id: Int
    public var revision: Int
    public var data: SyncRecord

    enum CodingKeys: String, CodingKey {
        case type, uuid, id, revision, data
    }

    public init(uuid: UUID, id: Int, revision: Int, data: SyncRecord) {
        type = data.type
        self.uuid = uuid.uuidString.lowercased()
        self.id = id
        self.revision = revision
        self.data = data
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        uuid = try container.decode(String.self, forKey: .uuid)
        id = try container.decode(Int.self, forKey: .id)
        revision = try container.decode(Int.self, forKey: .revision)
        data = try SyncRecord(type: type, from: try container.superDecoder(forKey: .data))
    }
}

/// One deleted record of `GET /api/sync`.
public struct SyncDeletionResource: Codable, Sendable, Equatable {
    public var type: String
    /// Nil only for a record deleted before its type had uuids.
    public var uuid: String?
    public var id: Int
    public var revision: Int

    public init(type: String, uuid: UUID?, id: Int, revision: Int) {
        self.type = type
        self.uuid = uuid?.uuidString.lowercased()
        self.id = id
        self.revision = revision
    }
}

/// `GET /api/sync`: the changes and deletions after the cursor, in revision order, and the cursor to ask
/// from next. `has_more` says the page stopped at the limit: ask again at once with the new cursor.
public struct SyncPullResource: Codable, Sendable, Equatable {
    public var changes: [SyncChangeResource]
    public var deletions: [SyncDeletionResource]
    public var cursor: String
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case changes, deletions, cursor
        case hasMore = "has_more"
    }

    public init(
        changes: [SyncChangeResource], deletions: [SyncDeletionResource], cursor: String, hasMore: Bool
    ) {
        self.changes = changes
        self.deletions = deletions
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// What became of one mutation of `POST /api/sync`.
public enum SyncPushStatus: String, Codable, Sendable, Equatable {
    /// Carried out as sent.
    case applied
    /// Its id was applied for this client before (a retry), or its create's uuid exists already: nothing
    /// was done again; `data` is the record as it is now.
    case duplicate
    /// Carried out, on a record others changed since the client's `base_revision` (the fields it named
    /// won, the others kept their newer values), or a delete of a record already deleted.
    case merged
    /// Refused with `errors`, as the type's own route refuses it; nothing of it was done.
    case rejected
    /// The record, or the contact it belongs to, was deleted meanwhile: the change is not carried out
    /// (nothing comes back to life) and the client should show the person that it was lost.
    case conflict
}

/// One problem of a refused mutation: the field it is about (nil for the mutation as a whole) and the
/// message the type's own route gives.
public struct SyncFieldErrorResource: Codable, Sendable, Equatable {
    @Nullable public var field: String?
    public var message: String

    public init(field: String?, message: String) {
        self.field = field
        self.message = message
    }
}

/// The answer to one mutation, by its `id`: `data` is the record as it stands once the push is done
/// (null once deleted or when refused), `revision` that record's revision.
public struct SyncPushResultResource: Codable, Sendable, Equatable {
    public var id: Int
    public var status: SyncPushStatus
    public var errors: [SyncFieldErrorResource]
    @Nullable public var data: SyncRecord?
    @Nullable public var revision: Int?

    public init(
        id: Int, status: SyncPushStatus, errors: [SyncFieldErrorResource] = [], data: SyncRecord? = nil,
        revision: Int? = nil
    ) {
        self.id = id
        self.status = status
        self.errors = errors
        self.data = data
        self.revision = revision
    }
}

/// `POST /api/sync`: each mutation's result, in the order sent, and the cursor to pull from next.
public struct SyncPushAnswerResource: Codable, Sendable, Equatable {
    public var results: [SyncPushResultResource]
    public var cursor: String

    public init(results: [SyncPushResultResource], cursor: String) {
        self.results = results
        self.cursor = cursor
    }
}
