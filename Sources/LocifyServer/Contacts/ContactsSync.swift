import LocifyAPI
import Vapor

extension SyncedType {
    /// Contacts, as `GET /api/contacts/{id}` answers them (without `with=contactfields`: the fields come
    /// as records of their own).
    static let contact = SyncedType(ContactsTable.self) { request, ids in
        let service = try request.contacts()
        let found = try await service.contacts(ids)
        let aggregates = try await service.aggregates(found.values.sorted { $0.id < $1.id })
        return byID(try await request.contactResources(aggregates, withExtras: false), id: \.id, as: SyncRecord.contact)
    }
}
