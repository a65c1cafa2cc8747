import FluentKit
import Foundation
import LocifyCore
import NIOCore
import SQLKit
import Vapor

/// The signed-in account's contacts as CardDAV's one address book: each contact a card at
/// `/dav/addressbooks/contacts/<uuid>.vcf`, the same card the vCard export writes, its ETag a digest of
/// the card (so it changes with anything the card shows: an address, a field, a tag's name); the
/// collection's sync token is the account's revision.
struct AddressBook {
    struct Card: Sendable {
        let contact: Contact
        let card: VCard
        /// The vCard 4.0 text, which the ETag digests: a card in 3.0 is the same card, another way written.
        let text: String
        let etag: String

        var href: String { DAVPaths.card(for: contact.uuid) }

        func text(in version: VCardFormat.Version) -> String {
            version == .four ? text : VCardFormat.write(card, version: version)
        }
    }

    /// Where the account's revision log stands: its latest revision, and the oldest a sync may start from.
    struct LogState: Sendable {
        let latest: Int
        let horizon: Int

        var token: String { AddressBook.token(for: latest) }

        /// The revision a client's token names, when this log can still tell what changed after it.
        func revision(ofToken token: String) -> Int? {
            guard token.hasPrefix(AddressBook.tokenPrefix),
                let revision = Int(token.dropFirst(AddressBook.tokenPrefix.count)), revision >= 0,
                revision <= latest, revision >= horizon
            else { return nil }
            return revision
        }
    }

    /// Sync tokens are URIs (RFC 6578, 3.2); the revision is all they carry.
    static let tokenPrefix = "urn:locify:sync:"

    static func token(for revision: Int) -> String { tokenPrefix + String(revision) }

    let request: Request
    let ownerID: Int

    init(_ request: Request) throws {
        self.request = request
        ownerID = try request.requireUser().id
    }

    func logState() async throws -> LogState {
        let rows = try await request.db.plainRows(
            #"SELECT "revision", "sync_horizon" FROM "users" WHERE "id" = \#(bind: ownerID)"#,
            columns: ["revision", "sync_horizon"])
        return LogState(latest: try rows.first?.integer(0) ?? 0, horizon: try rows.first?.integer(1) ?? 0)
    }

    func allCards() async throws -> [Card] {
        try await cards(of: try await request.contacts().all())
    }

    /// The cards of the contacts `uuids` name; a uuid that is not one of the account's contacts is left out.
    func cards(uuids: [UUID]) async throws -> [UUID: Card] {
        let found = try await SyncLocator(ContactsTable.self).find(Set(uuids), ownedBy: ownerID, on: request.db)
        let ids = found.values.compactMap { location -> Int? in
            if case .record(let id, _) = location { return id }
            return nil
        }
        let contacts = try await request.contacts().contacts(ids)
        let cards = try await cards(of: ids.sorted().compactMap { contacts[$0] })
        return Dictionary(cards.map { ($0.contact.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What a client that has seen everything up to `revision` must fetch again (the cards whose contact,
    /// addresses, fields, tags or gender changed since) and delete (the contacts deleted since).
    func changes(after revision: Int) async throws -> (changed: [Card], deleted: [UUID]) {
        let owner = ownerID
        // One statement: each way a card can change, by the contact it changes.
        let rows = try await request.db.plainRows(
            """
            SELECT "id" AS "contact_id" FROM "contacts" WHERE "user_id" = \(bind: owner) AND "revision" > \(bind: revision) \
            UNION SELECT "contact_id" FROM "addresses" WHERE "user_id" = \(bind: owner) AND "revision" > \(bind: revision) \
            UNION SELECT "contact_id" FROM "contact_fields" WHERE "user_id" = \(bind: owner) AND "revision" > \(bind: revision) \
            UNION SELECT "contact_id" FROM "contact_tags" WHERE "user_id" = \(bind: owner) AND "revision" > \(bind: revision) \
            UNION SELECT "contact_tags"."contact_id" FROM "contact_tags" JOIN "tags" ON "tags"."id" = "contact_tags"."tag_id" \
            WHERE "tags"."user_id" = \(bind: owner) AND "tags"."revision" > \(bind: revision) \
            UNION SELECT "contacts"."id" FROM "contacts" JOIN "genders" ON "genders"."id" = "contacts"."gender_id" \
            WHERE "genders"."user_id" = \(bind: owner) AND "genders"."revision" > \(bind: revision) \
            UNION SELECT "parent_id" FROM "sync_tombstones" WHERE "user_id" = \(bind: owner) \
            AND "revision" > \(bind: revision) AND "parent_id" IS NOT NULL
            """, columns: ["contact_id"])
        let ids = try rows.compactMap { try $0.integer(0) }
        let contacts = try await request.contacts().contacts(ids)
        let changed = try await cards(of: ids.sorted().compactMap { contacts[$0] })
        let deleted = try await request.db.plainRows(
            """
            SELECT "uuid" FROM "sync_tombstones" WHERE "user_id" = \(bind: owner) AND "type" = 'contact' \
            AND "revision" > \(bind: revision) AND "uuid" IS NOT NULL ORDER BY "revision", "id"
            """, columns: ["uuid"]
        ).map { try $0.requiredUUID(0) }
        // Each once; and a contact made again under a deleted one's uuid is not deleted.
        var seen = Set(changed.map(\.contact.uuid))
        return (changed, deleted.filter { seen.insert($0).inserted })
    }

    private func cards(of contacts: [Contact]) async throws -> [Card] {
        try await request.contactInterchange().vCards(of: contacts).map { contact, card in
            let text = VCardFormat.write(card)
            return Card(
                contact: contact, card: card, text: text,
                etag: ConditionalRequestsMiddleware.entityTag(of: ByteBuffer(string: text)))
        }
    }
}
