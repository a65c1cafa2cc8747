import LocifyAPI
import Vapor

extension SyncedType {
    static let call = SyncedType(CallsTable.self, writes: .call, restore: .call) { request, ids in
        let calls = try await request.ownedRows(
            ids, in: CallsTable.self, selecting: CallsTable.callColumns, read: CallsTable.call(from:))
        return byID(try await request.callResources(calls), id: \.id, as: SyncRecord.call)
    }
}

extension SyncWrites {
    static let call = CallsAPIController.routes.syncWrites(fields: [
        "contact_id", "called_at", "content", "contact_called", "emotions",
    ])
}

extension ArchiveRestore {
    static let call = ArchiveRestore(writes: .call) { record, ids in
        try record.fields(
            ["called_at", "content", "contact_called", "emotions"], references: ["contact_id": "contact"], ids: ids)
    }
}
