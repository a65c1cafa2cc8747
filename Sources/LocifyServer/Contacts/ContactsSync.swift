import LocifyAPI
import LocifyCore
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

/// A contact's push fields: its own route's and where it works (`PUT /api/contacts/{id}/work`), so a
/// change made in the web app's contact form, job and company with the rest, is one mutation.
struct ContactChange: Decodable {
    let contact: ContactInput
    let work: WorkInput

    init(from decoder: any Decoder) throws {
        contact = try ContactInput(from: decoder)
        work = try WorkInput(from: decoder)
    }

    var typeErrors: [FieldError] { contact.typeErrors + work.typeErrors }
}

extension SyncWrites {
    static let contact = SyncWrites(
        reading: ContactChange.self,
        fields: [
            "first_name", "last_name", "nickname", "description", "email", "gender_id", "gender",
            "is_birthdate_known", "birthdate_day", "birthdate_month", "birthdate_year", "birthdate_is_age_based",
            "birthdate_age", "birthdate_add_reminder", "is_starred", "is_archived", "job", "company",
        ],
        create: { request, input, uuid in
            try await request.contacts().create(
                input.work.merged(into: input.contact.draft), typeErrors: input.typeErrors,
                birthdayReminder: input.contact.addBirthdayReminder, uuid: uuid
            ).id
        },
        update: { request, id, input in
            _ = try await request.contacts().update(
                id, typeErrors: input.typeErrors, birthdayReminder: input.contact.addBirthdayReminder
            ) { input.work.merged(into: input.contact.merged(into: $0)) }
        },
        delete: { request, id, _ in try await request.contacts().delete(id) })
}

extension SyncReference {
    /// `contact_uuid`, for what belongs to a contact: its addresses, reminders, notes, tasks.
    static let contact = SyncReference("contact_uuid", for: "contact_id", in: ContactsTable.self)
}
