import LocifyAPI
import LocifyCore
import Vapor

extension SyncedType {
    static let tag = SyncedType(TagsTable.self, restore: .tag) { request, ids in
        let tags = try await request.ownedRows(
            ids, in: TagsTable.self, selecting: TagsTable.tagColumns,
            read: { try TagsTable.tag(from: $0) })
        return byID(tags.map(TagResource.init), id: \.id, as: SyncRecord.tag)
    }

    /// Which tag is on which contact: the link is a record of its own, so a client hears of a tag put on
    /// or taken off.
    static let contactTag = SyncedType(ContactTagsTable.self, restore: .contactTag) { request, ids in
        let links = try await request.ownedRows(
            ids, in: ContactTagsTable.self,
            selecting: ContactTagsTable.linkColumns, read: ContactTagsTable.link(from:))
        return byID(links, id: \.id, as: SyncRecord.contactTag)
    }
}

extension ArchiveRestore {
    /// A tag of the same name (whatever its case or accents) is the archive's tag.
    static let tag = ArchiveRestore(
        existing: { request, record, _ in
            guard let name = record.text("name").flatMap({ try? Tag.validatedName($0) }) else { return nil }
            return try await request.tags().tag(named: name)?.id
        },
        create: { request, record, uuid, _ in
            try await request.tags().create(named: record.text("name"), uuid: uuid).tag.id
        })

    static let contactTag = ArchiveRestore { request, record, uuid, ids in
        guard let contactID = try ids.id(of: "contact", record.referencedID("contact_id")),
            let tagID = try ids.id(of: "tag", record.referencedID("tag_id"))
        else { throw ValidationFailure(field: "contact_id", "A tag's link names its contact and its tag.") }
        return try await request.tags().link(tagID, toContact: contactID, uuid: uuid)
    }
}
