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
    static let gift = SyncWrites(
        reading: GiftInput.self,
        fields: [
            "contact_id", "name", "status", "comment", "url", "amount", "currency", "date", "recipient_id",
        ],
        references: [.contact],
        create: { request, input, uuid in
            try await request.gifts().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.gifts().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.gifts().delete(id) })
}

extension OfflinePages {
    static let gift = onContactPage(SyncedType.gift.name)
}
