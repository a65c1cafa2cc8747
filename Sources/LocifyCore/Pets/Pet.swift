import Foundation

/// What kind of animal a pet is: Monica's fixed list, the same ids on every server (Monica seeds them
/// once and offers no route to change them).
public struct PetCategory: Equatable, Sendable {
    public let id: Int
    /// Monica's untranslated key (`small_animal`).
    public let name: String
    /// One of the few Monica offers first.
    public let isCommon: Bool

    public static let all: [PetCategory] = [
        ("reptile", false), ("bird", false), ("cat", true), ("dog", true), ("fish", true), ("hamster", false),
        ("horse", false), ("rabbit", false), ("rat", false), ("small_animal", false), ("other", false),
    ].enumerated().map { PetCategory(id: $0.offset + 1, name: $0.element.0, isCommon: $0.element.1) }

    public static func category(_ id: Int) -> PetCategory? {
        guard (1...all.count).contains(id) else { return nil }
        return all[id - 1]
    }

    /// How a person reads it.
    public var label: String {
        name == "small_animal" ? "Small animal" : name.prefix(1).uppercased() + name.dropFirst()
    }
}

/// A contact's pet, checked.
public struct PetFields: Equatable, Sendable {
    public var category: PetCategory
    public var name: String?

    public init(category: PetCategory, name: String? = nil) {
        self.category = category
        self.name = name
    }
}

/// A stored pet of one of the owner's contacts.
public struct Pet: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var fields: PetFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: PetFields, createdAt: Date, updatedAt: Date
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

/// A pet as typed.
public struct PetDraft: Sendable {
    public var categoryID: Int?
    public var name: String?

    public init(categoryID: Int? = nil, name: String? = nil) {
        self.categoryID = categoryID
        self.name = name
    }

    public init(_ fields: PetFields) {
        self.init(categoryID: fields.category.id, name: fields.name)
    }

    public static let maximumNameLength = 255

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "pet_category_id": "Kind of animal", "name": "Name",
    ]

    public func validated() throws(ValidationFailure) -> PetFields {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        var category: PetCategory?
        if let categoryID {
            category = PetCategory.category(categoryID)
            if category == nil { check.fail("pet_category_id", "The selected pet category id is invalid.") }
        } else {
            check.fail("pet_category_id", "Choose the kind of animal.")
        }
        guard let category else { throw ValidationFailure(check.errors) }
        return try check.finish(PetFields(category: category, name: name))
    }
}
