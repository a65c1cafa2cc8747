import LocifyAPI
import Vapor

extension SyncedType {
    static let gift = SyncedType(GiftsTable.self, writes: .gift, restore: .gift) { request, ids in
        let gifts = try await request.ownedRows(
            ids, in: GiftsTable.self, selecting: GiftsTable.giftColumns, read: GiftsTable.gift(from:))
        return byID(try await request.giftResources(gifts), id: \.id, as: SyncRecord.gift)
    }
}

extension SyncWrites {
    static let gift = GiftsAPIController.routes.syncWrites(fields: [
        "contact_id", "name", "status", "comment", "url", "amount", "currency", "date", "recipient_id",
    ])
}

extension OfflinePages {
    static let gift = onContactPage(SyncedType.gift.name)
}

extension ArchiveRestore {
    static let gift = ArchiveRestore(writes: .gift) { record, ids in
        try record.fields(
            ["name", "status", "comment", "url", "amount", "currency", "date"],
            references: ["contact_id": "contact", "recipient_id": "contact"], ids: ids)
    }
}
