import Foundation

/// What a person may do with a category's places: their own, or shared with them able to edit or only
/// to read. Everyone who sees a place may comment on it; only its author changes a comment.
public enum PlaceRole: Int, Comparable, Sendable {
    case reader
    case editor
    case owner

    public static func < (lhs: PlaceRole, rhs: PlaceRole) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Adds places to the category and changes, moves between the owner's shared categories, gives
    /// pictures to and deletes its places.
    public var canEditPlaces: Bool { self >= .editor }

    public init(canEdit: Bool) {
        self = canEdit ? .editor : .reader
    }

    /// "can edit" / "can read": how the pages name a member's access.
    public var words: String {
        switch self {
        case .owner: "owner"
        case .editor: "can edit"
        case .reader: "can read"
        }
    }
}

/// A category the owner shares with another account (`memberID`), able to edit or only to read. The
/// member sees it beside their own categories until they leave or the owner revokes it.
public struct CategoryShare: Equatable, Sendable {
    public let id: Int
    public let categoryID: Int
    public let ownerID: Int
    public let memberID: Int
    public var canEdit: Bool
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, categoryID: Int, ownerID: Int, memberID: Int, canEdit: Bool, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.categoryID = categoryID
        self.ownerID = ownerID
        self.memberID = memberID
        self.canEdit = canEdit
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var role: PlaceRole { PlaceRole(canEdit: canEdit) }
}

/// An invitation as typed: the other account's e-mail address, and whether they may edit.
public struct CategoryShareDraft: Sendable {
    public var email: String?
    public var canEdit: Bool?

    public init(email: String? = nil, canEdit: Bool? = nil) {
        self.email = email
        self.canEdit = canEdit
    }

    public static let fieldLabels: [String: String] = ["email": "Email", "can_edit": "Can edit"]

    /// The normalised address and the access (read-only unless asked).
    public func validated() throws(ValidationFailure) -> (email: String, canEdit: Bool) {
        var check = FieldChecker()
        let email = check.text(email, field: "email", label: "Email").map(EmailAddress.normalized)
        if let email {
            if !EmailAddress.isPlausible(email) {
                check.fail("email", "Email must be an address like name@example.com.")
            }
        } else {
            check.fail("email", "Write the e-mail address of the account to share with.")
        }
        return try check.finish((email ?? "", canEdit ?? false))
    }
}

/// The address of a category's public, read-only page: a long random token (`PersonalToken`'s 48 letters
/// and digits), shown to its owner and forgotten when revoked.
public enum CategoryLinkToken {
    /// Whether `text` could be a token at all: anything else is refused before the database is asked.
    public static func isWellFormed(_ text: String) -> Bool {
        text.count == PersonalToken.length && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
