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
        /// The card's own UID, served back instead of Locify's: the client knows the card by it.
        case uid
        /// The URL and IMPP values of the card no kind of field recognised when it was written (a JSON array
        /// of strings), which stay in the card as the client wrote them. Decided then, not when it is read: a
        /// kind added later must not drop a value no field holds.
        case leftOut = "left_out"
        case updatedAt = "updated_at"
    }
}

extension DAVCardsTable {
    /// A contact's card as its client last wrote it, and the values of it Locify could not keep as fields.
    struct Kept: Sendable {
        let fileName: String
        let card: String
        let uid: String?
        let leftOut: Set<String>
    }

    /// The kept cards of these contacts, by contact; one query.
    static func kept(ofContacts ids: [Int], ownedBy ownerID: Int, on database: any Database) async throws -> [Int: Kept]
    {
        guard !ids.isEmpty else { return [:] }
        var kept: [Int: Kept] = [:]
        let columns = selection([.contact, .fileName, .card, .uid, .leftOut])
        for row in try await database.plainRows(
            """
            SELECT \(columns.list) FROM "dav_cards" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, of: name, idColumn: "contact_id"))
            """, columns: columns.names)
        {
            let leftOut = try JSONDecoder().decode([String].self, from: Data(try row.requiredText(4).utf8))
            kept[try row.requiredInteger(0)] = Kept(
                fileName: try row.requiredText(1), card: try row.requiredText(2), uid: try row.text(3),
                leftOut: Set(leftOut))
        }
        return kept
    }
}
