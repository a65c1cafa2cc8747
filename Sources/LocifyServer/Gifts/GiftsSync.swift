import LocifyAPI
import Vapor

extension SyncedType {
    static let gift = SyncedType(GiftsTable.self, writes: .gift) { request, ids in
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
