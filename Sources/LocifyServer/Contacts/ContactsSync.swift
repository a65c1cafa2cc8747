import LocifyAPI
import LocifyCore
import SQLKit
import Vapor

extension SyncedType {
    /// Contacts, as `GET /api/contacts/{id}` answers them (without `with=contactfields`: the fields come
    /// as records of their own).
    static let contact = SyncedType(ContactsTable.self, writes: .contact, restore: .contact) { request, ids in
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

extension ArchiveRestore {
    /// A contact comes back with its birthday, how the owner met them and what they like to eat (with the
    /// yearly reminders they had); once everyone is in, with who introduced them, its avatar, whether it is
    /// the owner's own and whether it is archived. What its resource leaves out travels in `extra`.
    static let contact = ArchiveRestore(
        finish: { request, record, id, ids in
            let contacts = try request.contacts()
            if let throughID = try ids.id(
                of: "contact", ContactArchive.introduction(of: record).flatMap { ContactArchive.throughID(of: $0) })
            {
                var draft = ContactArchive.introductionDraft(of: record, today: request.today)
                draft.throughContactID = throughID
                _ = try await contacts.updateIntroduction(
                    id, draft, foodPreferences: ContactArchive.foodPreferences(of: record), reminder: nil)
            }
            if case .bool(true) = record["is_me"] { try await contacts.setMeContact(id) }
            if case .string(let text) = record.extra["avatar_choice"] ?? .null,
                let choice = AvatarChoice(rawValue: text),
                choice != .initials
            {
                let photoID = try ids.id(of: "photo", ArchivedRecord.id(in: record.extra["avatar_photo_id"] ?? .null))
                _ = try await request.avatars().choose(contactID: id, choice: choice, photoID: photoID)
            }
            if case .bool(false) = record["is_active"] {
                try await SyncWrites.contact.update(request, id, try OrderedJSONEncoder().encode(["is_archived": true]))
            }
        },
        extras: { request, ids in
            let ownerID = try request.requireUser().id
            let rows = try await request.database.plainRows(
                """
                SELECT "id", "gender_id", "avatar_choice", "avatar_photo_id", "first_met_where" \
                FROM "contacts" WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
                """, columns: ["id", "gender_id", "avatar_choice", "avatar_photo_id", "first_met_where"])
            var extras: [Int: [String: JSONValue]] = [:]
            for row in rows {
                extras[try row.requiredInteger(0)] = [
                    "gender_id": try row.integer(1).map(JSONValue.integer) ?? .null,
                    "avatar_choice": try row.text(2).map(JSONValue.string) ?? .null,
                    "avatar_photo_id": try row.integer(3).map(JSONValue.integer) ?? .null,
                    "first_met_where": try row.text(4).map(JSONValue.string) ?? .null,
                ]
            }
            return extras
        },
        create: { request, record, uuid, ids in
            var fields = try record.fields(
                ["first_name", "last_name", "nickname", "description", "is_starred"], ids: ids)
            fields["gender_id"] =
                try ids.id(of: "gender", ArchivedRecord.id(in: record.extra["gender_id"] ?? .null))
                .map(JSONValue.integer) ?? .null
            let information = record["information"].object ?? [:]
            let birthdate = ContactArchive.DateParts(
                (information["dates"]?.object ?? [:])["birthdate"] ?? .null, today: request.today)
            fields["is_birthdate_known"] = .bool(birthdate != nil)
            if let birthdate {
                fields["birthdate_is_age_based"] = .bool(birthdate.age != nil)
                fields["birthdate_age"] = birthdate.age.map(JSONValue.integer) ?? .null
                fields["birthdate_day"] = .integer(birthdate.day)
                fields["birthdate_month"] = .integer(birthdate.month)
                fields["birthdate_year"] = birthdate.year.map(JSONValue.integer) ?? .null
            }
            // The yearly reminders come back with the reminders, under the uuids they had.
            fields["birthdate_add_reminder"] = false
            if case .object(let career) = information["career"] ?? .null {
                fields["job"] = career["job"] ?? .null
                fields["company"] = career["company"] ?? .null
            }
            let id = try await SyncWrites.contact.create(request, uuid, try OrderedJSONEncoder().encode(fields))
            let introduction = ContactArchive.introductionDraft(of: record, today: request.today)
            let foodPreferences = ContactArchive.foodPreferences(of: record)
            if introduction.story != nil || introduction.place != nil || introduction.isDateKnown == true
                || foodPreferences != nil
            {
                _ = try await request.contacts().updateIntroduction(
                    id, introduction, foodPreferences: foodPreferences, reminder: false)
            }
            return id
        })
}

/// Reads the parts of an archived contact that its resource nests.
private enum ContactArchive {
    /// A day as a resource gives it (`{"is_age_based", "is_year_unknown", "date"}`); nil for none.
    struct DateParts {
        let day: Int
        let month: Int
        let year: Int?
        /// For a day worked out from an age: the age today.
        let age: Int?

        init?(_ value: JSONValue, today: CalendarDate) {
            guard case .object(let parts) = value, case .string(let date) = parts["date"] ?? .null else { return nil }
            let numbers = date.prefix(10).split(separator: "-").compactMap { Int($0) }
            guard numbers.count == 3 else { return nil }
            day = numbers[2]
            month = numbers[1]
            year = parts["is_year_unknown"] == .bool(true) ? nil : numbers[0]
            age = parts["is_age_based"] == .bool(true) ? today.year - numbers[0] : nil
        }
    }

    static func introduction(of record: ArchivedRecord) -> [String: JSONValue]? {
        record["information"].object?["how_you_met"]?.object
    }

    static func throughID(of introduction: [String: JSONValue]) -> Int? {
        ArchivedRecord.id(in: introduction["first_met_through_contact"] ?? .null)
    }

    static func foodPreferences(of record: ArchivedRecord) -> String? {
        if case .string(let text) = record["information"].object?["food_preferences"] ?? .null { return text }
        return nil
    }

    /// How the owner met the contact, but for who introduced them (who may come later in the archive).
    static func introductionDraft(of record: ArchivedRecord, today: CalendarDate) -> ContactIntroductionDraft {
        let introduction = Self.introduction(of: record) ?? [:]
        var draft = ContactIntroductionDraft()
        if case .string(let story) = introduction["general_information"] ?? .null { draft.story = story }
        if case .string(let place) = record.extra["first_met_where"] ?? .null { draft.place = place }
        if let date = DateParts(introduction["first_met_date"] ?? .null, today: today) {
            draft.isDateKnown = true
            draft.isAgeBased = date.age != nil
            draft.age = date.age
            draft.day = date.day
            draft.month = date.month
            draft.year = date.year
        } else {
            draft.isDateKnown = false
        }
        return draft
    }
}
