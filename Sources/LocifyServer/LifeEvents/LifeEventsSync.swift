import LocifyAPI
import Vapor

extension SyncedType {
    static let lifeEvent = SyncedType(LifeEventsTable.self, writes: .lifeEvent) { request, ids in
        let lifeEvents = try await request.ownedRows(
            ids, in: LifeEventsTable.self, selecting: LifeEventsTable.lifeEventColumns,
            read: LifeEventsTable.lifeEvent(from:))
        return byID(try await request.lifeEventResources(lifeEvents), id: \.id, as: SyncRecord.lifeEvent)
    }
}

extension SyncWrites {
    static let lifeEvent = SyncWrites(
        reading: LifeEventInput.self,
        fields: ["contact_id", "life_event_type_id", "happened_at", "name", "note", "has_reminder"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.lifeEvents().create(
                contactID: input.contactID, input.draft, yearlyReminder: input.hasReminder,
                typeErrors: input.typeErrors,
                uuid: uuid
            )
            .id
        },
        update: { request, id, input in
            _ = try await request.lifeEvents().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.lifeEvents().delete(id) })
}

extension OfflinePages {
    static let lifeEvent = onContactPage(SyncedType.lifeEvent.name)
}
