import LocifyAPI
import Vapor

extension SyncedType {
    static let gender = SyncedType(GendersTable.self, restore: .gender) { request, ids in
        let genders = try await request.ownedRows(
            ids, in: GendersTable.self,
            selecting: GendersTable.genderColumns, read: GendersTable.gender(from:))
        return byID(genders.map(GenderResource.init), id: \.id, as: SyncRecord.gender)
    }
}

extension ArchiveRestore {
    /// A gender of the same name (the account's defaults) is the archive's gender.
    static let gender = ArchiveRestore(
        existing: { request, record, _ in
            record.sameName(among: try await request.genders().all(), name: \.name)?.id
        },
        create: { request, record, uuid, _ in
            try await request.genders().create(name: record.text("name"), type: record.text("type"), uuid: uuid).id
        })
}
