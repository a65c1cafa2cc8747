import Foundation
import LocifyCore

/// Money owed between the owner and a contact; a contact's debts go with it.
enum DebtsTable: StoredTable {
    static let name = "debts"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        /// True when the owner owes the contact (Monica's `in_debt: yes`).
        case ownerOwes = "owner_owes"
        case isSettled = "is_settled"
        /// The amount in the currency's minor units (cents), exact.
        case amountMinor = "amount_minor"
        case currency
        case reason
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "debt", revision: .revision, uuid: .uuid)

    /// The columns `debt(from:)` reads.
    static let debtColumns = selection(Column.allCases.filter { $0 != .revision })

    static func debt(from row: PlainRow) throws -> Debt {
        Debt(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: DebtFields(
                ownerOwes: try row.requiredBool(4), isSettled: try row.requiredBool(5),
                amount: Money(minorUnits: try row.requiredInteger(6), currency: try row.requiredText(7)),
                reason: try row.text(8)),
            createdAt: try row.requiredDate(9), updatedAt: try row.requiredDate(10))
    }

    static func values(of fields: DebtFields, now: Date) -> TableWriter<Self>.Values {
        [
            .ownerOwes: fields.ownerOwes, .isSettled: fields.isSettled, .amountMinor: fields.amount.minorUnits,
            .currency: fields.amount.currency, .reason: fields.reason, .updatedAt: now,
        ]
    }
}
