import LocifyAPI
import Vapor

extension SyncedType {
    static let debt = SyncedType(DebtsTable.self, writes: .debt, restore: .debt) { request, ids in
        let debts = try await request.ownedRows(
            ids, in: DebtsTable.self, selecting: DebtsTable.debtColumns, read: DebtsTable.debt(from:))
        return byID(try await request.debtResources(debts), id: \.id, as: SyncRecord.debt)
    }
}

extension SyncWrites {
    static let debt = DebtsAPIController.routes.syncWrites(fields: [
        "contact_id", "in_debt", "status", "amount", "currency", "reason",
    ])
}

extension OfflinePages {
    static let debt = onContactPage(SyncedType.debt.name)
}

extension ArchiveRestore {
    static let debt = ArchiveRestore(writes: .debt) { record, ids in
        try record.fields(
            ["in_debt", "status", "amount", "currency", "reason"], references: ["contact_id": "contact"], ids: ids)
    }
}
