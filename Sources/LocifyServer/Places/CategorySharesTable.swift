import Foundation
import LocifyCore

/// Categories shared with other accounts: the owner's (`user_id`) category, the account it is shared
/// with (`member_id`) and whether they may edit. Gone with the category or either account.
enum CategorySharesTable: StoredTable {
    static let name = "category_shares"

    enum Column: String, CaseIterable, Sendable {
        case id
        case category = "category_id"
        case owner = "user_id"
        case member = "member_id"
        case canEdit = "can_edit"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The columns `share(from:)` reads.
    static let shareColumns = selection([.id, .category, .owner, .member, .canEdit, .createdAt, .updatedAt])

    static func share(from row: PlainRow) throws -> CategoryShare {
        CategoryShare(
            id: try row.requiredInteger(0), categoryID: try row.requiredInteger(1), ownerID: try row.requiredInteger(2),
            memberID: try row.requiredInteger(3), canEdit: try row.requiredBool(4), createdAt: try row.requiredDate(5),
            updatedAt: try row.requiredDate(6))
    }
}

/// The public, read-only links of categories: at most one a category, found by its token.
enum CategoryLinksTable: StoredTable {
    static let name = "category_links"

    enum Column: String, CaseIterable, Sendable {
        case id
        case category = "category_id"
        case owner = "user_id"
        case token
        case createdAt = "created_at"
    }
}
