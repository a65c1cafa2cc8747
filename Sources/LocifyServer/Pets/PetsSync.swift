import LocifyAPI
import Vapor

extension SyncedType {
    static let pet = SyncedType(PetsTable.self, writes: .pet) { request, ids in
        let pets = try await request.ownedRows(
            ids, in: PetsTable.self, selecting: PetsTable.petColumns, read: PetsTable.pet(from:))
        return byID(try await request.petResources(pets), id: \.id, as: SyncRecord.pet)
    }
}

extension SyncWrites {
    static let pet = SyncWrites(
        reading: PetInput.self, fields: ["contact_id", "pet_category_id", "name"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.pets().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.pets().update(id, movingTo: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id, _ in try await request.pets().delete(id) })
}

extension OfflinePages {
    static let pet = onContactPage(SyncedType.pet.name)
}
