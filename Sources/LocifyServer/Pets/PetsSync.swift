import LocifyAPI
import Vapor

extension SyncedType {
    static let pet = SyncedType(PetsTable.self, writes: .pet, restore: .pet) { request, ids in
        let pets = try await request.ownedRows(
            ids, in: PetsTable.self, selecting: PetsTable.petColumns, read: PetsTable.pet(from:))
        return byID(try await request.petResources(pets), id: \.id, as: SyncRecord.pet)
    }
}

extension SyncWrites {
    static let pet = PetsAPIController.routes.syncWrites(fields: ["contact_id", "pet_category_id", "name"])
}

extension OfflinePages {
    static let pet = onContactPage(SyncedType.pet.name)
}

extension ArchiveRestore {
    static let pet = ArchiveRestore(writes: .pet) { record, ids in
        try record.fields(["name", "pet_category_id"], references: ["contact_id": "contact"], ids: ids)
    }
}
