import Foundation
import LocifyCore

/// Phone calls with a contact; a contact's calls go with it.
enum CallsTable: StoredTable {
    static let name = "calls"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case calledAt = "called_at"
        case content
        case contactCalled = "contact_called"
        /// The call's emotions as Monica's emotion ids, comma-separated (`3,17`): a handful from a fixed list.
        case emotions
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "call", revision: .revision, uuid: .uuid)

    /// The columns `call(from:)` reads.
    static let callColumns = selection(Column.allCases)

    static func call(from row: PlainRow) throws -> Call {
        Call(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: CallFields(
                calledAt: try row.requiredDate(4), content: try row.text(5), contactCalled: try row.requiredBool(6),
                emotions: emotions(from: try row.text(7))),
            createdAt: try row.requiredDate(8), updatedAt: try row.requiredDate(9))
    }

    static func values(of fields: CallFields, now: Date) -> TableWriter<Self>.Values {
        [
            .calledAt: fields.calledAt, .content: fields.content, .contactCalled: fields.contactCalled,
            .emotions: fields.emotions.map { String($0.id) }.joined(separator: ","), .updatedAt: now,
        ]
    }

    private static func emotions(from text: String?) -> [Emotion] {
        (text ?? "").split(separator: ",").compactMap { Int($0).flatMap(Emotion.emotion) }
    }
}
