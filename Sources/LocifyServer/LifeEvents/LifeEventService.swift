import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Life events of one owner, in the shape of `CallService`: owner-scoped queries, Core values in and out.
struct LifeEventService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = LifeEventsTable.lifeEventColumns

    /// One page of the owner's lifeEvents, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [LifeEvent], PageWindow
    ) {
        try await database.ownedChildPage(
            table: LifeEventsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort,
            page: page, read: LifeEventsTable.lifeEvent(from:))
    }

    func lifeEvent(_ id: Int) async throws -> LifeEvent {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: LifeEventsTable.self, selecting: Self.columns,
            read: LifeEventsTable.lifeEvent(from:))
    }

    /// Records a life event of one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found, an archived one refused.
    /// `yearlyReminder` also makes a reminder of the event each year from its day, as Monica's
    /// `has_reminder` does (the reminder stays when the event is deleted).
    func create(
        contactID: Int?, _ draft: LifeEventDraft, yearlyReminder: Bool = false, typeErrors: [FieldError] = [],
        uuid: UUID? = nil
    ) async throws -> LifeEvent {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "life event", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: LifeEventsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        var values = LifeEventsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(LifeEventsTable.self, ownedBy: ownerID, at: now) { [values] lifeEvents in
            try await lifeEvents.insert(values)
        }
        if yearlyReminder {
            _ = try await ReminderService(database: database, ownerID: ownerID, dependencies: dependencies).create(
                contactID: contactID,
                ReminderDraft(
                    title: fields.title, initialDate: fields.happenedOn.description, frequencyType: "year",
                    frequencyNumber: 1))
        }
        return LifeEvent(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored life event: `change` gets it as a draft and returns the new one. A life event stays with its
    /// contact.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (LifeEventDraft) -> LifeEventDraft) async throws
        -> LifeEvent
    {
        let stored = try await lifeEvent(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(LifeEventDraft(stored.fields)).validated()
        }
        let now = dependencies.now()
        let values = LifeEventsTable.values(of: fields, now: now)
        try await database.write(LifeEventsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] lifeEvents in
            try await lifeEvents.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(LifeEventsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] lifeEvents in
            try await lifeEvents.delete(id, ownedBy: ownerID)
        }
    }
}
