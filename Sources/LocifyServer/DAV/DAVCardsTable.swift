import FluentKit
import Foundation
import LocifyCore
import SQLKit

/// The last card a CardDAV client wrote for each contact, as it wrote it, under the file name it chose:
/// a phone's card carries much Locify does not model (item groups and their labels, `X-` properties,
/// the photo), and the card served back is Locify's values merged into it, so a round trip loses none.
enum DAVCardsTable: StoredTable {
    static let name = "dav_cards"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// Null once the contact is deleted: the row stays, so a sync can tell the client the file it knows
        /// is gone.
        case contact = "contact_id"
        case contactUUID = "contact_uuid"
        /// The card's file name in the address book (`<client's uid>.vcf`); a contact without a row here
        /// is at `<its uuid>.vcf`.
        case fileName = "file_name"
        case card
        case updatedAt = "updated_at"
    }
}

extension DAVCardsTable {
    /// A contact's card as its client last wrote it, and the values of it Locify could not keep as fields.
    struct Kept: Sendable {
        let fileName: String
        let card: String
        /// The card's own UID, which the client knows it by: served back instead of Locify's.
        let uid: String?
        let leftOut: Set<String>
    }

    /// The kept cards of these contacts, by contact; one query.
    static func kept(ofContacts ids: [Int], ownedBy ownerID: Int, kinds: [ContactFieldType], on database: any Database)
        async throws -> [Int: Kept]
    {
        guard !ids.isEmpty else { return [:] }
        var kept: [Int: Kept] = [:]
        for row in try await database.plainRows(
            """
            SELECT "contact_id", "file_name", "card" FROM "dav_cards" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, of: name, idColumn: "contact_id"))
            """, columns: ["contact_id", "file_name", "card"])
        {
            let text = try row.requiredText(2)
            let parsed = VCardFormat.read(text).cards.first
            kept[try row.requiredInteger(0)] = Kept(
                fileName: try row.requiredText(1), card: text, uid: parsed?.uid,
                leftOut: parsed.map { Set($0.contactFieldDrafts(kinds: kinds).leftOut) } ?? [])
        }
        return kept
    }
}
