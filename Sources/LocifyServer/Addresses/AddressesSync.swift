import LocifyAPI
import Vapor

extension SyncedType {
    static let address = SyncedType(AddressesTable.self, writes: .address, restore: .address) { request, ids in
        let addresses = try await request.ownedRows(
            ids, in: AddressesTable.self,
            selecting: AddressesTable.addressColumns, read: AddressesTable.address(from:))
        return byID(try await request.addressResources(addresses), id: \.id, as: SyncRecord.address)
    }
}

extension SyncWrites {
    static let address = SyncWrites(
        reading: AddressInput.self,
        fields: [
            "contact_id", "name", "street", "city", "province", "postal_code", "country", "country_id", "latitude",
            "longitude",
        ],
        references: [.contact],
        create: { request, input, uuid in
            try await request.addresses().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors,
                coordinatesSent: input.setsCoordinates, uuid: uuid
            ).id
        },
        update: { request, id, input in
            _ = try await request.addresses().update(
                id, contactID: input.contactID, typeErrors: input.typeErrors, coordinatesSent: input.setsCoordinates,
                keptFields: input.keptFields
            ) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.addresses().delete(id) })
}

extension ArchiveRestore {
    static let address = ArchiveRestore(writes: .address) { record, ids in
        var fields = try record.fields(
            ["name", "street", "city", "province", "postal_code", "latitude", "longitude"],
            references: ["contact_id": "contact"], ids: ids)
        if case .object(let country) = record["country"] { fields["country"] = country["iso"] ?? .null }
        return fields
    }
}
