import LocifyAPI
import Vapor

extension SyncedType {
    static let gender = SyncedType(GendersTable.self) { request, ids in
        let genders = try await request.ownedRows(
            ids, in: GendersTable.self,
            selecting: GendersTable.genderColumns, read: GendersTable.gender(from:))
        return byID(genders.map(GenderResource.init), id: \.id, as: SyncRecord.gender)
    }
}
