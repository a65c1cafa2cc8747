import LocifyAPI
import Vapor

extension SyncedType {
    /// Contacts, as `GET /api/contacts/{id}` answers them (without `with=contactfields`: the fields come
    /// as records of their own).
    static let contact = SyncedType(ContactsTable.self, writes: .contact) { request, ids in
        let service = try request.contacts()
        let found = try await service.contacts(ids)
        let aggregates = try await service.aggregates(found.values.sorted { $0.id < $1.id })
        return byID(try await request.contactResources(aggregates, withExtras: false), id: \.id, as: SyncRecord.contact)
    }
}

extension SyncWrites {
    static let contact = SyncWrites(
        reading: ContactInput.self,
        fields: [
            "first_name", "last_name", "nickname", "description", "email", "gender_id", "gender",
            "is_birthdate_known", "birthdate_day", "birthdate_month", "birthdate_year", "birthdate_is_age_based",
            "birthdate_age", "birthdate_add_reminder", "is_starred", "is_archived",
        ],
        create: { request, input, uuid in
            try await request.contacts().create(
                input.draft, typeErrors: input.typeErrors, birthdayReminder: input.addBirthdayReminder, uuid: uuid
            ).id
        },
        update: { request, id, input in
            _ = try await request.contacts().update(
                id, typeErrors: input.typeErrors, birthdayReminder: input.addBirthdayReminder
            ) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.contacts().delete(id) })
}

extension SyncReference {
    /// `contact_uuid`, for what belongs to a contact: its addresses, reminders, notes, tasks.
    static let contact = SyncReference("contact_uuid", for: "contact_id", in: ContactsTable.self)
}
