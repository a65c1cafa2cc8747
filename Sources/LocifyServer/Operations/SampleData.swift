import Fluent
import Foundation
import LocifyCore
import SQLKit

/// What the sample data added, for the command line's and the web's messages.
struct SampleDataReport: Sendable, Equatable {
    var contacts = 0
    /// People already in the account (same e-mail), not added again.
    var contactsThere = 0
    var addresses = 0
    var phoneNumbers = 0
    var reminders = 0
    var notes = 0
    var tasks = 0
    var photos = 0
    var places = 0

    var summary: String {
        var parts = [
            counted(addresses, "address", "addresses"), counted(phoneNumbers, "phone number", "phone numbers"),
            counted(reminders, "reminder", "reminders"), counted(notes, "note", "notes"),
            counted(tasks, "task", "tasks"), counted(photos, "photo", "photos"),
        ]
        .compactMap { $0 }
        let with = parts.isEmpty ? "" : " with " + listed(parts)
        parts = [counted(places, "saved place", "saved places")].compactMap { $0 }
        let places = parts.isEmpty ? "" : ", and \(parts[0])"
        let there = contactsThere > 0 ? " (\(contactsThere) already there)" : ""
        return "Added \(contacts) sample contacts\(with)\(places)\(there)."
    }

    private func counted(_ count: Int, _ one: String, _ many: String) -> String? {
        count == 0 ? nil : count == 1 ? "1 \(one)" : "\(count) \(many)"
    }

    private func listed(_ parts: [String]) -> String {
        parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}

/// Fills an account with the sample people and places (`SampleAccount`) through the same services the API and
/// the web use, and takes them away again: `locify seed --demo` and the start page's "Fill with sample data" /
/// "Remove sample data". What it adds is listed in `sample_records`, so a second fill adds nothing twice and a
/// removal touches nothing a person added; removals go through the services, so synced devices hear of them.
struct SampleData {
    let database: any Database
    let owner: AuthenticatedUser
    let dependencies: LocifyDependencies
    /// False when `LOCIFY_GEOCODER=off` (see `AddressService`).
    let geocoderEnabled: Bool
    let jobsQueued: @Sendable () -> Void

    /// Adds what the account does not have yet; `peopleOnly` adds the people alone (names, birthdays,
    /// e-mails), a known start for tests that count from it.
    func fill(peopleOnly: Bool = false) async throws -> SampleDataReport {
        var report = SampleDataReport()
        let knownEmails = try await contactFields.allEmails()
        let kinds = try await contactFields.types()
        let phoneKind = kinds.first { $0.type == ContactFieldType.phoneType }
        let today = owner.today(now: dependencies.now())
        for person in SampleAccount.people(today: today) {
            guard !knownEmails.contains(person.contact.normalizedEmail ?? ""), let claim = try await claim(person.key)
            else {
                report.contactsThere += 1
                continue
            }
            let contact = try await contacts.create(person.contact, birthdayReminder: peopleOnly ? nil : true)
            try await link(claim, contactID: contact.id)
            report.contacts += 1
            if peopleOnly { continue }
            if contact.fields.birthdate != nil { report.reminders += 1 }
            try await add(person, to: contact.id, phoneKind: phoneKind, today: today, report: &report)
        }
        if !peopleOnly {
            report.places = try await addPlaces()
        }
        return report
    }

    /// Deletes every contact and place the sample data added (with their addresses, reminders, notes,
    /// photos…), edited or not; returns how many contacts and places went.
    func remove() async throws -> (contacts: Int, places: Int) {
        let rows = try await database.plainRows(
            """
            SELECT "contact_id", "place_id" FROM \(SampleRecordsTable.quoted) \
            WHERE "user_id" = \(literal: owner.id) ORDER BY "id"
            """, columns: ["contact_id", "place_id"])
        var removed = (contacts: 0, places: 0)
        for row in rows {
            // Gone already (a second press, or the person deleted it meanwhile): nothing left to remove.
            do {
                if let contactID = try row.integer(0) {
                    try await contacts.delete(contactID)
                    removed.contacts += 1
                } else if let placeID = try row.integer(1) {
                    try await places.delete(placeID)
                    removed.places += 1
                }
            } catch AppError.notFound {}
        }
        _ = try await TableWriter(SampleRecordsTable.self, on: database).delete(
            where: #""user_id" = \#(literal: owner.id)"#)
        return removed
    }

    /// Whether the account holds anything the sample data added.
    func isPresent() async throws -> Bool {
        let rows = try await database.plainRows(
            #"SELECT 1 AS "found" FROM \#(SampleRecordsTable.quoted) WHERE "user_id" = \#(literal: owner.id) LIMIT 1"#,
            columns: ["found"])
        return !rows.isEmpty
    }

    /// Whether the account has no contacts and no places: the web adds sample data to such an account only.
    func accountIsEmpty() async throws -> Bool {
        let rows = try await database.plainRows(
            """
            SELECT (SELECT COUNT(*) FROM "contacts" WHERE "user_id" = \(literal: owner.id)) \
            + (SELECT COUNT(*) FROM "places" WHERE "user_id" = \(literal: owner.id)) AS "n"
            """, columns: ["n"])
        return try rows.first?.requiredInteger(0) == 0
    }

    private func add(
        _ person: SampleAccount.Person, to contactID: Int, phoneKind: ContactFieldType?, today: CalendarDate,
        report: inout SampleDataReport
    ) async throws {
        if let phone = person.phone, let phoneKind {
            let refused = try await contactFields.create(
                [ContactFieldDraft(typeID: phoneKind.id, data: phone, labels: ["Mobile"])], forContact: contactID,
                kinds: [phoneKind])
            if refused.isEmpty { report.phoneNumbers += 1 }
        }
        if let address = person.address {
            _ = try await addresses.create(contactID: contactID, address, coordinatesSent: address.latitude != nil)
            report.addresses += 1
        }
        if let (title, days) = person.reminder, let date = today.adding(days: days) {
            _ = try await reminders.create(
                contactID: contactID,
                ReminderDraft(title: title, initialDate: date.description, frequencyType: "one_time"))
            report.reminders += 1
        }
        if let note = person.note {
            _ = try await notes.create(contactID: contactID, NoteDraft(body: note))
            report.notes += 1
        }
        if let task = person.task {
            _ = try await tasks.create(contactID: contactID, task)
            report.tasks += 1
        }
        if let picture = person.picture {
            let upload = try PhotoUpload(bytes: try picture.png())
            let photo = try await photos.create(
                contactID: contactID, upload: upload, originalFilename: picture.rawValue + ".png")
            _ = try await avatars.choose(contactID: contactID, choice: .photo, photoID: photo.id)
            report.photos += 1
        }
    }

    /// The sample's places, each in its category by name (made again if the person deleted or renamed it).
    private func addPlaces() async throws -> Int {
        var categoryIDs: [String: Int] = [:]
        var added = 0
        for place in SampleAccount.places {
            guard let claim = try await claim(place.key) else { continue }
            if categoryIDs[place.category] == nil {
                if let category = try await places.category(named: place.category) {
                    categoryIDs[place.category] = category.id
                } else {
                    categoryIDs[place.category] = try await places.createCategory(named: place.category).id
                }
            }
            let saved = try await places.create(
                PlaceDraft(
                    name: place.name, address: place.address, latitude: place.latitude, longitude: place.longitude,
                    notes: place.notes, categoryID: categoryIDs[place.category], isFavorite: place.isFavorite))
            try await link(claim, placeID: saved.id)
            added += 1
        }
        return added
    }

    /// Takes `key` for this fill before adding what it names, so two fills at once (a second press) never
    /// both add it: nil when it is taken already.
    private func claim(_ key: String) async throws -> Int? {
        let rows = try await TableWriter(SampleRecordsTable.self, on: database).insert(
            [.owner: owner.id, .key: key, .createdAt: dependencies.now()], onConflict: [.owner, .key],
            returning: [.id])
        return try rows.first?.integer(0)
    }

    private func link(_ claim: Int, contactID: Int? = nil, placeID: Int? = nil) async throws {
        try await TableWriter(SampleRecordsTable.self, on: database).update(
            [.contactID: contactID, .placeID: placeID], where: #""id" = \#(literal: claim)"#)
    }

    private var contacts: ContactService {
        ContactService(database: database, owner: owner, dependencies: dependencies)
    }
    private var contactFields: ContactFieldService {
        ContactFieldService(database: database, ownerID: owner.id, dependencies: dependencies)
    }
    private var addresses: AddressService {
        AddressService(
            database: database, ownerID: owner.id, dependencies: dependencies, geocoderEnabled: geocoderEnabled,
            jobsQueued: jobsQueued)
    }
    private var reminders: ReminderService {
        ReminderService(database: database, ownerID: owner.id, dependencies: dependencies)
    }
    private var notes: NoteService { NoteService(database: database, ownerID: owner.id, dependencies: dependencies) }
    private var tasks: TaskService { TaskService(database: database, ownerID: owner.id, dependencies: dependencies) }
    private var photos: PhotoService { PhotoService(database: database, ownerID: owner.id, dependencies: dependencies) }
    private var avatars: AvatarService {
        AvatarService(database: database, ownerID: owner.id, dependencies: dependencies)
    }
    private var places: PlaceService { PlaceService(database: database, ownerID: owner.id, dependencies: dependencies) }
}
