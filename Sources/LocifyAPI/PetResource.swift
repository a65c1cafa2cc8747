import Foundation
import LocifyCore

/// Monica's pet category.
public struct PetCategoryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "pet_category"
    public var name: String
    public var isCommon: Bool

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case isCommon = "is_common"
    }

    public init(_ category: PetCategory) {
        id = category.id
        name = category.name
        isCommon = category.isCommon
    }
}

/// Monica's pet, with `uuid` and `contact_id` as Locify's other records have them.
public struct PetResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "pet"
    @Nullable public var name: String?
    public var petCategory: PetCategoryResource
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name
        case petCategory = "pet_category"
        case account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ pet: Pet, contact: ContactShortResource) {
        id = pet.id
        uuid = pet.uuid.lowercasedText
        name = pet.fields.name
        petCategory = PetCategoryResource(pet.fields.category)
        account = AccountReference(id: pet.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(pet.createdAt)
        updatedAt = Timestamp.string(pet.updatedAt)
        contactID = pet.contactID
    }
}

/// The body of the pet routes, read leniently like `ContactInput`.
public struct PetInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = PetDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: PetDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: PetDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.categoryID = reader.integer("pet_category_id")
        draft.name = reader.string("name")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: PetDraft) -> PetDraft {
        var result = existing
        if presentKeys.contains("pet_category_id") { result.categoryID = draft.categoryID }
        if presentKeys.contains("name") { result.name = draft.name }
        return result
    }
}
