import LocifyAPI
import Vapor

extension SyncedType {
    static let reminder = SyncedType(RemindersTable.self, writes: .reminder) { request, ids in
        let reminders = try await request.ownedRows(
            ids, in: RemindersTable.self,
            selecting: RemindersTable.reminderColumns, read: RemindersTable.reminder(from:))
        return byID(try await request.reminderResources(reminders), id: \.id, as: SyncRecord.reminder)
    }
}

extension SyncWrites {
    static let reminder = SyncWrites(
        reading: ReminderInput.self,
        fields: ["contact_id", "title", "description", "initial_date", "frequency_type", "frequency_number"],
        references: [.contact],
        create: { request, input, uuid in
            try await request.reminders().create(
                contactID: input.contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid
            ).id
        },
        update: { request, id, input in
            _ = try await request.reminders().update(id, contactID: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id, _ in try await request.reminders().delete(id) })
}
