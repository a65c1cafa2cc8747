import LocifyAPI
import Vapor

extension SyncedType {
    /// Contact fields with their labels, which change with them.
    static let contactField = SyncedType(ContactFieldsTable.self) { request, ids in
        let fields = try await request.contactFields().fields(ids)
        return byID(try await request.contactFieldResources(fields), id: \.id, as: SyncRecord.contactField)
    }

    static let contactFieldType = SyncedType(ContactFieldTypesTable.self) { request, ids in
        let wanted = Set(ids)
        let kinds = try await request.contactFields().types().filter { wanted.contains($0.id) }
        return byID(kinds.map(ContactFieldTypeResource.init), id: \.id, as: SyncRecord.contactFieldType)
    }
}
