import LocifyAPI
import Vapor

extension SyncedType {
    static let debt = SyncedType(DebtsTable.self, writes: .debt) { request, ids in
        let debts = try await request.ownedRows(
            ids, in: DebtsTable.self, selecting: DebtsTable.debtColumns, read: DebtsTable.debt(from:))
        return byID(try await request.debtResources(debts), id: \.id, as: SyncRecord.debt)
    }
}

extension SyncWrites {
    static let debt = SyncWrites(
        reading: DebtInput.self, fields: ["contact_id", "in_debt", "status", "amount", "currency", "reason"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.debts().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.debts().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.debts().delete(id) })
}

extension OfflinePages {
    static let debt = onContactPage(SyncedType.debt.name)
}
