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
        /// The card without its photo, whose bytes are read only when a card's text is sent.
        let card: VCard
        /// The card's file name: the one its client chose when it made it, else `<uuid>.vcf`.
        let fileName: String
        /// The card a client last wrote, whose properties Locify does not model are served back with it.
        let kept: DAVCardsTable.Kept?
        /// The digest of the picture the contact shows (its photo or Gravatar), served as PHOTO.
        let photoDigest: String?
        /// A digest of the vCard 4.0 text with the picture's digest in the photo's place: a card in 3.0 is
        /// the same card, another way written, and a new picture is a new card.
        let etag: String
        /// The 4.0 text of a card without a picture, written once for its ETag and served as it is.
        private let pictureless: String?

        var href: String { DAVPaths.card(fileName).path }

        init(contact: Contact, card: VCard, kept: DAVCardsTable.Kept?) {
            self.contact = contact
            var card = card
            if let uid = kept?.uid { card.uid = uid }
            card.photoURI = nil
            self.card = card
            self.kept = kept
            fileName = kept?.fileName ?? contact.uuid.lowercasedText + DAVPaths.cardSuffix
            photoDigest = contact.avatar.source == .initials ? nil : contact.avatar.imageDigest
            let stand = Self.write(card, photo: photoDigest.map { "locify:picture:" + $0 }, in: .four, keeping: kept)
            etag = ConditionalRequestsMiddleware.entityTag(of: ByteBuffer(string: stand))
            pictureless = photoDigest == nil ? stand : nil
        }

        /// The card's text, with `photos` (data URLs by digest, `AddressBook.photos(of:)`) for its picture.
        func text(in version: VCardFormat.Version, photos: [String: String]) -> String {
            if version == .four, let pictureless { return pictureless }
            return Self.write(card, photo: photoDigest.flatMap { photos[$0] }, in: version, keeping: kept)
        }

        private static func write(
            _ card: VCard, photo: String?, in version: VCardFormat.Version, keeping kept: DAVCardsTable.Kept?
        ) -> String {
            var card = card
            card.photoURI = photo
            guard let kept else { return VCardFormat.write(card, version: version) }
            return VCardFormat.write(card, version: version, keepingFrom: kept.card, leftOut: kept.leftOut)
        }
    }

    /// The largest picture a card carries: the card must still fit in what a client may write back
    /// (`max-resource-size`), base64 making it a third larger.
    static let largestPhoto = 512 * 1024

    /// Sync tokens are URIs (RFC 6578, 3.2); the revision is all they carry.
    static let tokenPrefix = "urn:locify:sync:"

    let request: Request
    let ownerID: Int

    init(_ request: Request) throws {
        self.request = request
        ownerID = try request.requireUser().id
    }

    /// The pictures of `cards` as data URLs, by digest; one query. One larger than `largestPhoto` is left
    /// out (the card goes without it).
    func photos(of cards: [Card]) async throws -> [String: String] {
        let digests = Set(cards.compactMap(\.photoDigest))
        guard !digests.isEmpty else { return [:] }
        let blobs = try await PhotoBlobs(database: request.database, ownerID: ownerID).bytes(digests: Array(digests))
        return blobs.compactMapValues { bytes in
            guard bytes.count <= Self.largestPhoto, let info = ImageInfo(bytes) else { return nil }
            return "data:\(info.format.mimeType);base64,\(Data(bytes).base64EncodedString())"
        }
    }

    func logState() async throws -> RevisionLogState {
        try await RevisionLogState.read(for: ownerID, on: request.database)
    }

    func allCards() async throws -> [Card] {
        try await cards(of: try await request.contacts().all())
    }

    /// The cards at these file names; a name that is no card of the account's is left out.
    func cards(named names: [String]) async throws -> [String: Card] {
        guard !names.isEmpty else { return [:] }
        var idsByName: [String: Int] = [:]
        for row in try await request.database.plainRows(
            """
            SELECT "file_name", "contact_id" FROM "dav_cards" WHERE "user_id" = \(bind: ownerID) \
            AND "contact_id" IS NOT NULL AND "file_name" IN (\(binds: names))
            """, columns: ["file_name", "contact_id"])
        {
            idsByName[try row.requiredText(0)] = try row.requiredInteger(1)
        }
        // The others by the contact's uuid (`<uuid>.vcf`).
        let uuids = Dictionary(
            names.filter { idsByName[$0] == nil }.compactMap { name in
                DAVPaths.contactUUID(inFileName: name).map { (name, $0) }
            },
            uniquingKeysWith: { first, _ in first })
        let found = try await SyncLocator(ContactsTable.self).find(
            Set(uuids.values), ownedBy: ownerID, on: request.database)
        for (name, uuid) in uuids {
            if case .record(let id, _) = found[uuid] { idsByName[name] = id }
        }
        let contacts = try await request.contacts().contacts(Array(Set(idsByName.values)))
        let byID = Dictionary(
            try await cards(of: contacts.values.sorted { $0.id < $1.id }).map { ($0.contact.id, $0) },
            uniquingKeysWith: { first, _ in first })
        // A contact a client named is at its name only; `<uuid>.vcf` is not another copy of it.
        return idsByName.compactMapValues { byID[$0] }.filter { name, card in
            card.fileName == name || card.kept == nil
        }
    }

    /// What a client that has seen everything up to `revision` must fetch again (the cards whose contact,
    /// addresses, fields, tags or gender changed since) and delete (the contacts deleted since).
    func changes(after revision: Int) async throws -> (changed: [Card], deleted: [String]) {
        let owner = ownerID
        // One statement: each way a card can change, by the contact it changes.
        let rows = try await request.database.plainRows(
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
        let deleted = try await request.database.plainRows(
            """
            SELECT "uuid" FROM "sync_tombstones" WHERE "user_id" = \(bind: owner) AND "type" = 'contact' \
            AND "revision" > \(bind: revision) AND "uuid" IS NOT NULL ORDER BY "revision", "id"
            """, columns: ["uuid"]
        ).map { try $0.requiredUUID(0) }
        // Each once; and a contact made again under a deleted one's uuid is not deleted.
        var seen = Set(changed.map(\.contact.uuid))
        let gone = deleted.filter { seen.insert($0).inserted }
        // Each at the file name its client knows it by.
        var names: [UUID: String] = [:]
        if !gone.isEmpty {
            for row in try await request.database.plainRows(
                """
                SELECT "contact_uuid", "file_name" FROM "dav_cards" WHERE "user_id" = \(bind: owner) \
                AND "contact_uuid" IN (\(binds: gone))
                """, columns: ["contact_uuid", "file_name"])
            {
                names[try row.requiredUUID(0)] = try row.requiredText(1)
            }
        }
        return (changed, gone.map { DAVPaths.card(names[$0] ?? $0.lowercasedText + DAVPaths.cardSuffix).path })
    }

    private func cards(of contacts: [Contact]) async throws -> [Card] {
        guard !contacts.isEmpty else { return [] }
        let kept = try await DAVCardsTable.kept(ofContacts: contacts.map(\.id), ownedBy: ownerID, on: request.database)
        let kinds = try await request.contactFields().types()
        return try await request.contactInterchange().vCards(of: contacts, kinds: kinds).map { contact, card in
            Card(contact: contact, card: card, kept: kept[contact.id])
        }
    }
}

extension RevisionLogState {
    /// The address book's sync token now.
    var token: String { AddressBook.tokenPrefix + String(latest) }

    /// The revision a client's sync token names, when this log can still tell what changed after it.
    func revision(ofToken token: String) -> Int? {
        guard token.hasPrefix(AddressBook.tokenPrefix),
            let revision = Int(token.dropFirst(AddressBook.tokenPrefix.count)), revision >= 0, revision <= latest,
            revision >= horizon
        else { return nil }
        return revision
    }
}
