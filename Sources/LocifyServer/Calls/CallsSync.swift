import LocifyAPI
import Vapor

extension SyncedType {
    static let call = SyncedType(CallsTable.self, writes: .call) { request, ids in
        let calls = try await request.ownedRows(
            ids, in: CallsTable.self, selecting: CallsTable.callColumns, read: CallsTable.call(from:))
        return byID(try await request.callResources(calls), id: \.id, as: SyncRecord.call)
    }
}

extension SyncWrites {
    static let call = SyncWrites(
        reading: CallInput.self, fields: ["contact_id", "called_at", "content", "contact_called", "emotions"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.calls().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.calls().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.calls().delete(id) })
}
