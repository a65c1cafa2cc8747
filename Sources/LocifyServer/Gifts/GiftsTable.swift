import Foundation
import LocifyCore

/// Gifts for or from a contact; a contact's gifts go with it.
enum GiftsTable: StoredTable {
    static let name = "gifts"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case name
        /// `idea`, `offered` or `received`.
        case status
        case comment
        case url
        /// The amount in the currency's minor units (cents), exact; null without one.
        case amountMinor = "amount_minor"
        case currency
        /// `YYYY-MM-DD`.
        case date
        /// Another of the owner's contacts it is meant for; no foreign key: a deleted one reads as none.
        case recipient = "recipient_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "gift", revision: .revision, uuid: .uuid)

    /// The columns `gift(from:)` reads.
    static let giftColumns = selection(Column.allCases.filter { $0 != .revision })

    static func gift(from row: PlainRow) throws -> Gift {
        // The currency is written with the amount, never without.
        let amount: Money? = try row.integer(8).map { Money(minorUnits: $0, currency: try row.requiredText(9)) }
        return Gift(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: GiftFields(
                name: try row.requiredText(4),
                status: try row.requiredText(5, naming: "a gift's status", GiftStatus.init(rawValue:)),
                comment: try row.text(6), url: try row.text(7), amount: amount,
                date: try row.text(10).flatMap { CalendarDate(iso8601: $0) }, recipientID: try row.integer(11)),
            createdAt: try row.requiredDate(12), updatedAt: try row.requiredDate(13))
    }

    static func values(of fields: GiftFields, now: Date) -> TableWriter<Self>.Values {
        [
            .name: fields.name, .status: fields.status.rawValue, .comment: fields.comment, .url: fields.url,
            .amountMinor: fields.amount?.minorUnits, .currency: fields.amount?.currency,
            .date: fields.date?.description, .recipient: fields.recipientID, .updatedAt: now,
        ]
    }
}
