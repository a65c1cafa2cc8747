import LocifyAPI
import SQLKit
import Vapor

extension SyncedType {
    static let reminder = SyncedType(RemindersTable.self, writes: .reminder, restore: .reminder) { request, ids in
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

extension ArchiveRestore {
    /// A reminder that follows its contact's birthday or the day they met (its `kind`, kept in `extra`)
    /// comes back as that contact's, following the day as it did.
    static let reminder = ArchiveRestore(
        extras: { request, ids in
            let rows = try await request.database.plainRows(
                """
                SELECT "id", "kind" FROM "reminders" \
                WHERE \(SQLQueryString.owned(by: try request.requireUser().id, ids: ids)) AND "kind" IS NOT NULL
                """, columns: ["id", "kind"])
            return Dictionary(
                uniqueKeysWithValues: try rows.map {
                    (try $0.requiredInteger(0), ["kind": .string(try $0.requiredText(1))])
                })
        },
        create: { request, record, uuid, ids in
            let contactID = try ids.id(of: "contact", record.referencedID("contact"))
            if case .string(let kind) = record.extra["kind"] ?? .null, let contactID,
                let id = try await request.reminders().makeYearlyReminder(
                    kind, of: try await request.contacts().contact(contactID), uuid: uuid)
            {
                return id
            }
            var fields = try record.fields(
                ["title", "description", "initial_date", "frequency_type", "frequency_number"], ids: ids)
            fields["contact_id"] = contactID.map(JSONValue.integer) ?? .null
            return try await SyncWrites.reminder.create(request, uuid, try OrderedJSONEncoder().encode(fields))
        })
}
