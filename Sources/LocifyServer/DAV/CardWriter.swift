import FluentKit
import Foundation
import LocifyCore
import Vapor

/// A card a CardDAV client wrote, made into the contact it stands for through the same services the API
/// and the web use (so it is checked by the same rules, and its addresses are geocoded), all in the
/// caller's one write transaction: a card one of whose values breaks a rule changes nothing.
///
/// The card says the whole contact: names, work, birthday, gender (when it names one), the e-mails, phone
/// numbers and accounts, the addresses and the tags. What is the same stays as it is (an address keeps
/// its position, a field its id); what the card no longer has goes; what is new is made. The card itself
/// is kept, so what Locify does not model goes back to the client with it.
struct CardWriter {
    let request: Request
    let ownerID: Int

    /// Makes or changes the contact; returns it.
    func save(_ card: VCard, text: String, fileName: String, over existing: Contact?) async throws -> Contact {
        let contacts = try request.contacts()
        let kinds = try await request.contactFields().types()
        let draft = card.contactDraft
        let contact: Contact
        if let existing {
            contact = try await contacts.update(existing.id) { stored in
                var changed = stored
                changed.firstName = draft.firstName
                changed.lastName = draft.lastName
                changed.nickname = draft.nickname
                changed.description = draft.description
                changed.replaceBirthdate(with: draft)
                changed.job = draft.job
                changed.company = draft.company
                if draft.genderName != nil {
                    changed.genderID = nil
                    changed.genderName = draft.genderName
                }
                return changed
            }
        } else {
            // The client's file name is the contact's uuid when it is one no record has.
            var uuid: UUID?
            if let named = DAVPaths.contactUUID(inFileName: fileName),
                case .nowhere = try await SyncLocator(ContactsTable.self).find(
                    [named], ownedBy: ownerID, on: request.database)[
                        named]
            {
                uuid = named
            }
            contact = try await contacts.create(draft, uuid: uuid)
        }
        let leftOut = try await replaceFields(of: contact.id, with: card, kinds: kinds)
        try await replaceAddresses(of: contact.id, with: card)
        try await replaceTags(of: contact.id, with: card.categories)
        // A picture Locify took as the contact's is not kept in the card too: a picture chosen later in
        // Locify, or none, must not bring the device's old one back.
        let keptText =
            try await takePhoto(card.photoURI, for: contact) ? VCardFormat.removing("PHOTO", from: text) : text
        try await keep(keptText, uid: card.uid, leftOut: leftOut, fileName: fileName, for: contact)
        return contact
    }

    /// Makes the card's picture (a data URL, in an image format Locify keeps) the contact's: a photo of
    /// it, shown as its avatar, unless the contact shows that picture already. Returns whether the
    /// picture is Locify's now; a link, or an image Locify does not keep, stays in the card as written.
    private func takePhoto(_ uri: String?, for contact: Contact) async throws -> Bool {
        guard let uri, uri.hasPrefix("data:"),
            let upload = try? PhotoUpload(
                base64: uri, maximumBytes: request.application.locifyConfig.maximumPhotoBytes)
        else { return false }
        if contact.avatar.imageDigest == Photo.digest(of: upload.bytes), contact.avatar.source != .initials {
            return true
        }
        let dependencies = request.dependencies
        let photo = try await PhotoService(database: request.database, ownerID: ownerID, dependencies: dependencies)
            .create(contactID: contact.id, upload: upload, originalFilename: "contact-photo")
        _ = try await AvatarService(database: request.database, ownerID: ownerID, dependencies: dependencies)
            .choose(contactID: contact.id, choice: .photo, photoID: photo.id)
        return true
    }

    /// Returns the card's URL and IMPP values no kind of field recognises, which no field holds.
    private func replaceFields(of contactID: Int, with card: VCard, kinds: [ContactFieldType]) async throws
        -> [String]
    {
        let service = try request.contactFields()
        let (wanted, leftOut) = card.contactFieldDrafts(kinds: kinds)
        var stored = try await service.fields(ofContacts: [contactID])
        var missing: [ContactFieldDraft] = []
        for draft in wanted {
            if let index = stored.firstIndex(where: { $0.typeID == draft.typeID && $0.data == draft.data }) {
                stored.remove(at: index)
            } else {
                missing.append(draft)
            }
        }
        for gone in stored { try await service.delete(gone.id) }
        let refused = try await service.create(missing, forContact: contactID, kinds: kinds)
        if let (field, failure) = refused.first {
            throw ValidationFailure(
                field: "card", "“\(field.data.prefix(40))”: \(failure.messages.joined(separator: " "))")
        }
        return leftOut
    }

    private func replaceAddresses(of contactID: Int, with card: VCard) async throws {
        let service = try request.addresses()
        var stored = try await request.contacts().aggregate(contactID).addresses
        func key(_ address: PostalAddress) -> [String] {
            [
                address.label?.lowercased(), address.street, address.city, address.province, address.postalCode,
                address.countryCode,
            ].map { $0 ?? "" }
        }
        for (index, draft) in card.addressDrafts.enumerated() {
            let address: PostalAddress
            do {
                address = try draft.validated()
            } catch {
                throw ValidationFailure(field: "card", "Address \(index + 1): \(error.messages.joined(separator: " "))")
            }
            if let same = stored.firstIndex(where: { key($0.address) == key(address) }) {
                stored.remove(at: same)
                continue
            }
            _ = try await service.create(
                contactID: contactID, draft, coordinatesSent: draft.latitude != nil && draft.longitude != nil)
        }
        for gone in stored { try await service.delete(gone.id) }
    }

    private func replaceTags(of contactID: Int, with names: [String]) async throws {
        let service = try request.tags()
        let wanted = Set(names.map { TextFolding.searchKey([$0]) })
        let attached = try await service.tags(ofContacts: [contactID])[contactID, default: []]
        let unwanted = attached.filter { !wanted.contains(TextFolding.searchKey([$0.name])) }.map(\.id)
        if !unwanted.isEmpty { try await service.unsetTags(unwanted, fromContact: contactID) }
        let attachedKeys = Set(attached.map { TextFolding.searchKey([$0.name]) })
        let added = names.filter { !attachedKeys.contains(TextFolding.searchKey([$0])) }
        if !added.isEmpty { try await service.setTags(added, onContact: contactID) }
    }

    /// The card as the client wrote it, under its file name (a row a deleted contact left is taken again).
    private func keep(_ text: String, uid: String?, leftOut: [String], fileName: String, for contact: Contact)
        async throws
    {
        let writer = TableWriter(DAVCardsTable.self, on: request.database)
        let now = request.dependencies.now()
        try await writer.delete(
            where:
                #""user_id" = \#(bind: ownerID) AND ("file_name" = \#(bind: fileName) OR "contact_id" = \#(bind: contact.id))"#
        )
        try await writer.insert([
            [
                .owner: ownerID, .contact: contact.id, .contactUUID: contact.uuid, .fileName: fileName, .card: text,
                .uid: uid, .leftOut: String(decoding: try JSONEncoder().encode(leftOut), as: UTF8.self),
                .updatedAt: now,
            ]
        ])
    }
}
