import Fluent
import Foundation
import LocifyCore
import SQLKit

/// What a contact's fields give the contact itself: their data, searched with its names, and its
/// e-mails, the first of which chooses its Gravatar.
struct ContactFieldDigest: Equatable {
    var data: [String] = []
    var emails: [String] = []

    mutating func add(_ value: String, isEmail: Bool) {
        data.append(value)
        if isEmail { emails.append(value) }
    }

    /// What a contact's names and fields give it, where that differs from what it stores.
    struct DerivedChange: Sendable {
        let contactID: Int
        let searchKey: String
        let gravatarHash: String?
        let gravatarChanged: Bool
    }

    /// Works out again what the contacts' names and fields give them, and returns where it differs from
    /// what they store. The caller writes it, leaving `updated_at`: the service through the contacts'
    /// writer, the migration that moved e-mails into fields in its own SQL.
    ///
    /// Plain SQL over the columns it needs: that migration calls it, before later ones have added the
    /// table's other columns.
    static func derivedChanges(ofContacts contactIDs: [Int], ownerID: Int, on database: any Database) async throws
        -> [DerivedChange]
    {
        let ids = Array(Set(contactIDs)).sorted()
        guard !ids.isEmpty else { return [] }
        let columns = ["id", "first_name", "last_name", "nickname", "search_key", "gravatar_hash"]
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)) FROM "contacts" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
            """, columns: columns)
        let digests = try await digests(ofContacts: ids, ownerID: ownerID, on: database)
        var changes: [DerivedChange] = []
        for row in rows {
            let id = try row.requiredInteger(0)
            let names = ContactFields(
                firstName: try row.requiredText(1), lastName: try row.text(2), nickname: try row.text(3))
            let digest = digests[id] ?? ContactFieldDigest()
            let (key, hash) = (digest.searchKey(names), digest.gravatarHash)
            let (storedKey, storedHash) = (try row.requiredText(4), try row.text(5))
            guard key != storedKey || hash != storedHash else { continue }
            changes.append(
                DerivedChange(contactID: id, searchKey: key, gravatarHash: hash, gravatarChanged: hash != storedHash))
        }
        return changes
    }

    /// The search key of a contact with these names and these fields.
    func searchKey(_ names: ContactFields) -> String {
        names.searchKey(fieldData: data)
    }

    /// The Gravatar hash of the first e-mail, which chooses the contact's Gravatar.
    var gravatarHash: String? {
        emails.first.map(Avatar.gravatarHash(email:))
    }

    /// What the fields of each of `contactIDs` give it, fields in the order they were made.
    static func digests(ofContacts contactIDs: [Int], ownerID: Int, on database: any Database) async throws
        -> [Int: ContactFieldDigest]
    {
        guard !contactIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT "contact_fields"."contact_id", "contact_fields"."data", "contact_field_types"."type" \
            FROM "contact_fields" JOIN "contact_field_types" \
            ON "contact_field_types"."id" = "contact_fields"."contact_field_type_id" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, of: "contact_fields", idColumn: "contact_id")) \
            ORDER BY "contact_fields"."id"
            """, columns: ["contact_id", "data", "type"])
        var digests: [Int: ContactFieldDigest] = [:]
        for row in rows {
            digests[try row.requiredInteger(0), default: ContactFieldDigest()].add(
                try row.requiredText(1), isEmail: try row.text(2) == ContactFieldType.emailType)
        }
        return digests
    }
}
