import Foundation
import LocifyCore

/// `{id, object: "category_share", category_id, member: {id, name, email}, can_edit, url, created_at,
/// updated_at}`: one account a category is shared with, as its owner sees it.
public struct CategoryShareResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "category_share"
    public var categoryID: Int
    public var member: Member
    public var canEdit: Bool
    public var url: String
    public var createdAt: String
    public var updatedAt: String

    /// The account a category is shared with.
    public struct Member: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var email: String

        public init(id: Int, name: String, email: String) {
            self.id = id
            self.name = name
            self.email = email
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, object
        case categoryID = "category_id"
        case member
        case canEdit = "can_edit"
        case url
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ share: CategoryShare, memberName: String, memberEmail: String, url: String) {
        id = share.id
        categoryID = share.categoryID
        member = Member(id: share.memberID, name: memberName, email: memberEmail)
        canEdit = share.canEdit
        self.url = url
        createdAt = Timestamp.string(share.createdAt)
        updatedAt = Timestamp.string(share.updatedAt)
    }
}

/// `{id, object: "shared_category", name, owner: {id, name}, can_edit, places_count, places_url,
/// created_at, updated_at}`: a category someone else shares with the person; its places are at
/// `places_url` (`/api/places?category_id={id}`).
public struct SharedCategoryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "shared_category"
    public var name: String
    public var owner: Owner
    public var canEdit: Bool
    public var placesCount: Int
    public var placesURL: String
    public var createdAt: String
    public var updatedAt: String

    /// The account that owns a shared category.
    public typealias Owner = AccountName

    enum CodingKeys: String, CodingKey {
        case id, object, name, owner
        case canEdit = "can_edit"
        case placesCount = "places_count"
        case placesURL = "places_url"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ category: PlaceCategory, ownerName: String, canEdit: Bool, placesCount: Int, placesURL: String) {
        id = category.id
        name = category.name
        owner = Owner(id: category.ownerID, name: ownerName)
        self.canEdit = canEdit
        self.placesCount = placesCount
        self.placesURL = placesURL
        createdAt = Timestamp.string(category.createdAt)
        updatedAt = Timestamp.string(category.updatedAt)
    }
}

/// `{object: "category_link", category_id, url, created_at}`: a category's public, read-only page.
public struct CategoryLinkResource: Codable, Sendable, Equatable {
    public var object = "category_link"
    public var categoryID: Int
    public var url: String
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case object
        case categoryID = "category_id"
        case url
        case createdAt = "created_at"
    }

    public init(categoryID: Int, url: String, createdAt: Date) {
        self.categoryID = categoryID
        self.url = url
        self.createdAt = Timestamp.string(createdAt)
    }
}

/// The body of the share routes, read leniently: `email` (on create) and `can_edit`.
public struct CategoryShareInput: Decodable, Sendable {
    public private(set) var draft = CategoryShareDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: CategoryShareDraft, presentKeys: Set<String>) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: CategoryShareDraft.fieldLabels)
        draft.email = reader.string("email")
        draft.canEdit = reader.boolean("can_edit")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }
}

/// `GET /api/sharedcategories/{id}/sync`: the shared category, its places and their pictures and comments
/// changed after the cursor, in the owner's revision order, and the cursor to ask from next (`has_more`:
/// ask again at once). The last page (`has_more` false) carries `present`: the uuids of every record the
/// category holds now, by type; a client deletes what it kept of the category and is not there (a place
/// deleted, or moved to a category not shared with it). A share revoked or left answers 404: the client
/// forgets the category.
public struct SharedCategorySyncResource: Codable, Sendable, Equatable {
    public var changes: [SyncChangeResource]
    public var present: [String: [String]]?
    public var canEdit: Bool
    public var cursor: String
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case changes, present
        case canEdit = "can_edit"
        case cursor
        case hasMore = "has_more"
    }

    public init(
        changes: [SyncChangeResource], present: [String: [String]]?, canEdit: Bool, cursor: String, hasMore: Bool
    ) {
        self.changes = changes
        self.present = present
        self.canEdit = canEdit
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
