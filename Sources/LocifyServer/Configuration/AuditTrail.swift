import FluentKit
import Foundation
import LocifyAPI
import NIOConcurrencyHelpers
import SQLKit

/// What was done to a record, in Monica's words for its audit log (`contact_created`).
enum AuditAction: String, Sendable {
    case created, updated, deleted
}

/// The rows of synced tables a write transaction changed, gathered as `TableWriter` writes them and kept
/// as the account's audit log when the transaction ends (`AuditLogTable`). A savepoint rolled back takes
/// back what it had gathered.
final class TransactionChanges: Sendable {
    struct Change: Sendable {
        let type: String
        let action: AuditAction
        let id: Int
        /// The contact the row is about, when it is about one (a contact is about itself).
        let contactID: Int?
    }

    private let changes = NIOLockedValueBox<[Change]>([])

    func record(_ new: [Change]) {
        changes.withLockedValue { $0.append(contentsOf: new) }
    }

    /// Where the gathered changes stand, for `rollBack(to:)`.
    var mark: Int { changes.withLockedValue(\.count) }

    func rollBack(to mark: Int) {
        changes.withLockedValue { $0.removeSubrange(min(mark, $0.count)...) }
    }

    func drain() -> [Change] {
        changes.withLockedValue { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// Each account's audit log (Monica's `logs`): one entry per kind of record and what was done to it in
/// one write transaction (a contact made with its first e-mail is `contact_created` and
/// `contactfield_created`), read-only through the API. Entries go with the account.
enum AuditLogTable: StoredTable {
    static let name = "audit_logs"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// `<type>_<created|updated|deleted>`, the sync feed's type of the records.
        case action
        /// JSON: `{"type", "count", "ids", "contact_id"}`: the first hundred ids, and the contact every
        /// record is about when there is one.
        case objects
        /// The one contact every record of the entry is about, if there is one: a contact's own log.
        case aboutContact = "about_contact_id"
        case auditedAt = "audited_at"
    }

    /// How many ids an entry names; `count` says how many records there were.
    static let idsKept = 100

    /// Writes the transaction's changes as entries, in the order they were first made.
    static func record(_ changes: [TransactionChanges.Change], ownerID: Int, at now: Date, on database: any Database)
        async throws
    {
        guard !changes.isEmpty else { return }
        var order: [String] = []
        var groups: [String: [TransactionChanges.Change]] = [:]
        for change in changes {
            let action = change.type + "_" + change.action.rawValue
            if groups[action] == nil { order.append(action) }
            groups[action, default: []].append(change)
        }
        let encoder = JSONEncoder()
        var rows: [Values] = []
        for action in order {
            guard let group = groups[action], let type = group.first?.type else { continue }
            var seen = Set<Int>()
            let ids = group.map(\.id).filter { seen.insert($0).inserted }
            let contacts = Set(group.map(\.contactID))
            let about = contacts.count == 1 ? contacts.first ?? nil : nil
            // Stored as the API answers it, so reading an entry is decoding this one type.
            let objects = AuditLogResource.Objects(
                type: type, count: ids.count, ids: Array(ids.prefix(idsKept)), contactID: about)
            rows.append([
                .owner: ownerID, .action: action,
                .objects: String(decoding: try encoder.encode(objects), as: UTF8.self), .aboutContact: about,
                .auditedAt: now,
            ])
        }
        try await TableWriter(AuditLogTable.self, on: database).insert(rows)
    }
}
