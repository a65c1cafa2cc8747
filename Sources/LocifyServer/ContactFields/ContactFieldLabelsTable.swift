import Foundation
import LocifyCore

/// A contact field's labels (home, work, mobile…), in the order they were given.
enum ContactFieldLabelsTable: StoredTable {
    static let name = "contact_field_labels"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case field = "contact_field_id"
        case type
        case label
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    // Not synced: labels travel inside their field's resource, and a field whose labels change is
    // rewritten with them, taking the revision.

    /// The columns `label(from:)` reads: the field's id first, to group them.
    static let labelColumns = selection([.field, .id, .type, .label, .createdAt])

    static func label(from row: PlainRow) throws -> (fieldID: Int, label: ContactField.StoredLabel) {
        (
            try row.requiredInteger(0),
            ContactField.StoredLabel(
                id: try row.requiredInteger(1),
                label: ContactFieldLabel(type: try row.requiredText(2), label: try row.requiredText(3)),
                createdAt: try row.requiredDate(4))
        )
    }
}
