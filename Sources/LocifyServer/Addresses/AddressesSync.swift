import LocifyAPI
import Vapor

extension SyncedType {
    static let address = SyncedType(AddressesTable.self) { request, ids in
        let addresses = try await request.ownedRows(
            ids, in: AddressesTable.self,
            selecting: AddressesTable.addressColumns, read: AddressesTable.address(from:))
        return byID(try await request.addressResources(addresses), id: \.id, as: SyncRecord.address)
    }
}
