import LocifyAPI
import Vapor

extension SyncedType {
    static let lifeEvent = SyncedType(LifeEventsTable.self, writes: .lifeEvent, restore: .lifeEvent) { request, ids in
        let lifeEvents = try await request.ownedRows(
            ids, in: LifeEventsTable.self, selecting: LifeEventsTable.lifeEventColumns,
            read: LifeEventsTable.lifeEvent(from:))
        return byID(try await request.lifeEventResources(lifeEvents), id: \.id, as: SyncRecord.lifeEvent)
    }
}

extension SyncWrites {
    static let lifeEvent = LifeEventsAPIController.routes.syncWrites(fields: [
        "contact_id", "life_event_type_id", "happened_at", "name", "note", "has_reminder",
    ])
}

extension OfflinePages {
    static let lifeEvent = onContactPage(SyncedType.lifeEvent.name)
}

extension ArchiveRestore {
    static let lifeEvent = ArchiveRestore(writes: .lifeEvent) { record, ids in
        try record.fields(
            ["name", "note", "happened_at", "life_event_type_id"], references: ["contact_id": "contact"], ids: ids)
    }
}
