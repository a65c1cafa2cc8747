import LocifyAPI
import Vapor

extension SyncedType {
    static let tag = SyncedType(TagsTable.self) { request, ids in
        let tags = try await request.ownedRows(
            ids, in: TagsTable.self, selecting: TagsTable.tagColumns,
            read: { try TagsTable.tag(from: $0) })
        return byID(tags.map(TagResource.init), id: \.id, as: SyncRecord.tag)
    }

    /// Which tag is on which contact: the link is a record of its own, so a client hears of a tag put on
    /// or taken off.
    static let contactTag = SyncedType(ContactTagsTable.self) { request, ids in
        let links = try await request.ownedRows(
            ids, in: ContactTagsTable.self,
            selecting: ContactTagsTable.linkColumns, read: ContactTagsTable.link(from:))
        return byID(links, id: \.id, as: SyncRecord.contactTag)
    }
}
