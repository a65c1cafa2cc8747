import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The fields a contact list can be sorted by (`sort=created_at`, `sort=-updated_at`).
typealias ContactSortField = TimestampSortField

/// How a contact list is ordered.
enum ContactOrder: Equatable {
    /// A `sort` parameter: oldest first unless it says otherwise.
    case sorted(ListSort<ContactSortField>)
    /// The web list: starred first, then by name.
    case listing

    static let defaultSort = ListSort(ContactSortField.createdAt)
}

/// Contacts of one owner. The shape every service copies: each query is scoped to the owner, results
/// are Core values, input comes as Core drafts, and nothing here knows about HTTP or wire types, so
/// the API, the web pages, the CLI and imports all call the same code.
struct ContactService {
    let database: any Database
    let owner: AuthenticatedUser
    let dependencies: LocifyDependencies
    /// Contacts another part of the same read-only answer has read or is reading.
    var sharedReads: SharedContactReads? = nil

    private var ownerID: Int { owner.id }

    /// The owner's current day, in their timezone: it bounds birth years. Worked out only by the writes
    /// that validate, not by every read.
    private var today: CalendarDate { owner.today(now: dependencies.now()) }

    /// One page of the owner's contacts; archived ones only when asked for (the API never lists them).
    /// The rows come from an index in list order (`AddContactListIndexes`), and the total is counted from
    /// the same index in the same query.
    func page(
        matching text: String?, taggedWith tagID: Int? = nil, order: ContactOrder, page: PageSelection,
        archived: Bool = false
    ) async throws -> ([Contact], PageWindow) {
        let (contacts, _, window) = try await rows(
            matching: text, taggedWith: tagID, order: order, page: page, archived: archived, withChildren: false)
        return (contacts, window)
    }

    /// One page of contacts with their addresses and child counts, for the API's list. The page's query
    /// says which contacts have addresses at all, so a page of contacts without any costs no second query.
    func aggregatePage(
        matching text: String?, taggedWith tagID: Int? = nil, order: ContactOrder, page: PageSelection
    ) async throws -> ([ContactAggregate], PageWindow) {
        let (contacts, children, window) = try await rows(
            matching: text, taggedWith: tagID, order: order, page: page, withChildren: true)
        let withAddresses = zip(contacts, children).filter(\.1.hasAddresses).map(\.0.id)
        let addresses = try await AddressesTable.addresses(ofContacts: withAddresses, ownerID: ownerID, on: database)
        let withTags = zip(contacts, children).filter(\.1.hasTags).map(\.0.id)
        let tags = try await tagService.tags(ofContacts: withTags)
        let relationships = try await self.relationships(
            ofContacts: zip(contacts, children).filter(\.1.hasRelationships).map(\.0.id))
        let introducers = try await self.introducers(of: contacts)
        return (
            zip(contacts, children).map { contact, children in
                ContactAggregate(
                    contact: contact, addresses: addresses[contact.id] ?? [], tags: tags[contact.id] ?? [],
                    counts: children.counts, relationships: relationships[contact.id] ?? [],
                    metThrough: contact.introduction.throughContactID.flatMap { introducers[$0] })
            }, window
        )
    }

    /// What the page's query says of each contact's child rows, when asked (the API's list needs it, the
    /// web list does not).
    private struct ChildSummary {
        let hasAddresses: Bool
        let hasTags: Bool
        let counts: ContactCounts
        let hasRelationships: Bool
    }

    private func rows(
        matching text: String?, taggedWith tagID: Int? = nil, order: ContactOrder, page: PageSelection,
        archived: Bool = false, withChildren: Bool
    ) async throws -> ([Contact], [ChildSummary], PageWindow) {
        // Our own integers and flags go in as literals, user text as binds: SQLite plans `column = ?` by
        // whether the value is 0 or 1, so binding such a value prepared every statement a second time.
        var conditions: SQLQueryString =
            #""user_id" = \#(literal: ownerID) AND "is_archived" = \#(SQLLiteral.boolean(archived))"#
        guard let terms = ContactSearch.terms(of: text) else { return ([], [], page.window(total: 0)) }
        for term in terms {
            conditions += #" AND "search_key" LIKE \#(bind: "%" + term + "%")"#
        }
        if let tagID {
            conditions += #" AND "id" IN (SELECT "contact_id" FROM "contact_tags" WHERE "tag_id" = \#(literal: tagID))"#
        }
        let offset = (page.page - 1) * page.limit
        let children: SQLQueryString =
            withChildren
            ? """
            , EXISTS (SELECT 1 FROM "addresses" WHERE "addresses"."contact_id" = "contacts"."id") AS "has_addresses", \
            \(Self.hasTags), \(Self.childCounts), \(Self.hasRelationships)
            """ : ""
        // The total rides along as an uncorrelated subquery, counted once from the index: one round trip.
        let rows = try await database.plainRows(
            """
            SELECT \(ContactRows.columnList), \
            (SELECT COUNT(*) FROM "contacts" WHERE \(conditions)) AS "total"\(children) \
            FROM "contacts" WHERE \(conditions) \
            ORDER BY \(ordering(order)) LIMIT \(literal: page.limit) OFFSET \(literal: offset)
            """,
            columns: ContactRows.columns + ["total"]
                + (withChildren ? ["has_addresses", "has_tags"] + Self.childCountColumns + ["has_relationships"] : []))
        let total: Int
        if let first = rows.first {
            total = try first.requiredInteger(ContactRows.columns.count)
        } else if page.page == 1 {
            total = 0
        } else {
            // Past the last page there is no row to carry the total.
            let counted = try await database.plainRows(
                #"SELECT COUNT(*) AS "total" FROM "contacts" WHERE \#(conditions)"#, columns: ["total"])
            total = try counted.first?.requiredInteger(0) ?? 0
        }
        let hasAddresses = ContactRows.columns.count + 1
        let summaries =
            withChildren
            ? try rows.map {
                ChildSummary(
                    hasAddresses: try $0.requiredBool(hasAddresses), hasTags: try $0.requiredBool(hasAddresses + 1),
                    counts: try Self.childCounts(in: $0, at: hasAddresses + 2),
                    hasRelationships: try $0.requiredBool(hasAddresses + 2 + Self.childCountColumns.count))
            } : []
        return (try rows.map(ContactRows.contact(from:)), summaries, page.window(total: total))
    }

    private static let hasTags: SQLQueryString = """
        EXISTS (SELECT 1 FROM "contact_tags" WHERE "contact_tags"."contact_id" = "contacts"."id") AS "has_tags"
        """

    private static let hasRelationships: SQLQueryString = """
        EXISTS (SELECT 1 FROM "relationships" WHERE "relationships"."contact_id" = "contacts"."id") \
        AS "has_relationships"
        """

    /// Each contact's relationships with the contacts at their other ends: two queries, however many.
    private func relationships(ofContacts ids: [Int]) async throws -> [Int: [ContactRelationship]] {
        guard !ids.isEmpty else { return [:] }
        let sides = try await RelationshipService(database: database, ownerID: ownerID, dependencies: dependencies)
            .relationships(ofContacts: ids)
        let others = try await contacts(sides.values.flatMap { $0.map(\.ofContactID) })
        return sides.mapValues { sides in
            sides.compactMap { side in others[side.ofContactID].map { ContactRelationship(side, ofContact: $0) } }
        }
    }

    /// The contacts the owner met `contacts` through, by id, in one query (none when nobody introduced them).
    private func introducers(of contacts: [Contact]) async throws -> [Int: Contact] {
        let ids = contacts.compactMap(\.introduction.throughContactID)
        return ids.isEmpty ? [:] : try await self.contacts(ids)
    }

    private var tagService: TagService { TagService(database: database, ownerID: ownerID, dependencies: dependencies) }

    /// The child tables counted for `statistics`, each from its `…_by_contact` index, in the contact's own
    /// query.
    private static let countedTables = ["reminders", "notes", "tasks", "calls", "debts", "gifts"]
    private static let childCountColumns =
        countedTables.map { "\($0)_count" } + ["last_call", "activities_count", "last_activity"]
    private static let childCounts = SQLQueryString(
        countedTables.map {
            #"(SELECT COUNT(*) FROM "\#($0)" WHERE "\#($0)"."contact_id" = "contacts"."id") AS "\#($0)_count""#
        }.joined(separator: ", ")
            + #", (SELECT MAX("called_at") FROM "calls" WHERE "calls"."contact_id" = "contacts"."id") AS "last_call""#
            // Activities are the contact's through who was there (`activity_contacts_by_contact`).
            + #", (SELECT COUNT(*) FROM "activity_contacts" WHERE "activity_contacts"."contact_id" = "contacts"."id")"#
            + #" AS "activities_count", (SELECT MAX("activities"."happened_on") FROM "activity_contacts" JOIN "activities""#
            + #" ON "activities"."id" = "activity_contacts"."activity_id""#
            + #" WHERE "activity_contacts"."contact_id" = "contacts"."id") AS "last_activity""#)

    private static func childCounts(in row: PlainRow, at first: Int) throws -> ContactCounts {
        ContactCounts(
            reminders: try row.requiredInteger(first), notes: try row.requiredInteger(first + 1),
            tasks: try row.requiredInteger(first + 2), calls: try row.requiredInteger(first + 3),
            debts: try row.requiredInteger(first + 4), gifts: try row.requiredInteger(first + 5),
            lastCall: try row.date(first + 6), activities: try row.requiredInteger(first + 7),
            lastActivity: try row.text(first + 8).flatMap { CalendarDate(iso8601: $0) })
    }

    /// How many reminders, notes and tasks each of `ids` has.
    private func childCounts(of ids: [Int]) async throws -> [Int: ContactCounts] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT "id", \(Self.childCounts) FROM "contacts" WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
            """, columns: ["id"] + Self.childCountColumns)
        return Dictionary(
            uniqueKeysWithValues: try rows.map { (try $0.requiredInteger(0), try Self.childCounts(in: $0, at: 1)) })
    }

    func contact(_ id: Int) async throws -> Contact {
        try ContactRows.contact(from: try await ContactRows.requireContact(id, ownedBy: ownerID, on: database))
    }

    /// All of the owner's contacts, archived ones too, oldest first: for exports.
    func all() async throws -> [Contact] {
        try await database.plainRows(
            #"SELECT \#(ContactRows.columnList) FROM "contacts" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: ContactRows.columns
        ).map(ContactRows.contact(from:))
    }

    /// All of the owner's contacts by name, as a person reads them: for the forms that pick a contact.
    func allByName() async throws -> [Contact] {
        try await all().sorted { $0.completeName.localizedStandardCompare($1.completeName) == .orderedAscending }
    }

    /// The owner's contacts among `ids`, by id; ids of other accounts' contacts are left out.
    func contacts(_ ids: [Int]) async throws -> [Int: Contact] {
        guard !ids.isEmpty else { return [:] }
        guard let sharedReads else { return try await read(ids) }
        return try await sharedReads.contacts(ids) { try await read($0) }
    }

    private func read(_ ids: [Int]) async throws -> [Int: Contact] {
        let rows = try await database.plainRows(
            """
            SELECT \(ContactRows.columnList) FROM "contacts" WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
            """, columns: ContactRows.columns)
        return Dictionary(uniqueKeysWithValues: try rows.map(ContactRows.contact(from:)).map { ($0.id, $0) })
    }

    /// Each contact with its addresses: one query per child table, however many contacts.
    func aggregates(_ contacts: [Contact]) async throws -> [ContactAggregate] {
        let addresses = try await AddressesTable.addresses(
            ofContacts: contacts.map(\.id), ownerID: ownerID, on: database)
        let counts = try await childCounts(of: contacts.map(\.id))
        let tags = try await tagService.tags(ofContacts: contacts.map(\.id))
        let relationships = try await self.relationships(ofContacts: contacts.map(\.id))
        let introducers = try await self.introducers(of: contacts)
        return contacts.map {
            ContactAggregate(
                contact: $0, addresses: addresses[$0.id] ?? [], tags: tags[$0.id] ?? [],
                counts: counts[$0.id] ?? ContactCounts(), relationships: relationships[$0.id] ?? [],
                metThrough: $0.introduction.throughContactID.flatMap { introducers[$0] })
        }
    }

    func aggregate(_ contact: Contact) async throws -> ContactAggregate {
        try await aggregates([contact])[0]
    }

    /// One contact with its addresses; the contact's query says whether it has any, so a contact without
    /// addresses costs one query.
    func aggregate(_ id: Int) async throws -> ContactAggregate {
        let rows = try await database.plainRows(
            """
            SELECT \(ContactRows.columnList), \
            EXISTS (SELECT 1 FROM "addresses" WHERE "addresses"."contact_id" = "contacts"."id") AS "has_addresses", \
            \(Self.hasTags), \(Self.childCounts), \(Self.hasRelationships) \
            FROM "contacts" WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """,
            columns: ContactRows.columns + ["has_addresses", "has_tags"] + Self.childCountColumns + [
                "has_relationships"
            ])
        guard let row = rows.first else { throw AppError.notFound }
        let contact = try ContactRows.contact(from: row)
        let counts = try Self.childCounts(in: row, at: ContactRows.columns.count + 2)
        let addresses =
            try row.requiredBool(ContactRows.columns.count)
            ? try await AddressesTable.addresses(ofContacts: [id], ownerID: ownerID, on: database)[id] ?? [] : []
        let tags =
            try row.requiredBool(ContactRows.columns.count + 1)
            ? try await tagService.tags(ofContacts: [id])[id] ?? [] : []
        let relationships =
            try row.requiredBool(ContactRows.columns.count + 2 + Self.childCountColumns.count)
            ? try await self.relationships(ofContacts: [id])[id] ?? [] : []
        let metThrough = try await introducers(of: [contact]).values.first
        return ContactAggregate(
            contact: contact, addresses: addresses, tags: tags, counts: counts, relationships: relationships,
            metThrough: metThrough)
    }

    /// `typeErrors` are the values a client sent that could not be read (text for a number).
    /// `birthdayReminder` true gives a known birthday its yearly reminder. The draft's e-mail becomes the
    /// contact's first Email field.
    func create(
        _ draft: ContactDraft, typeErrors: [FieldError] = [], birthdayReminder: Bool? = nil, uuid: UUID? = nil
    ) async throws -> Contact {
        // Read even when the draft names none: an account's first contact seeds its genders.
        let genders = try await genderService.all()
        let fields = try draft.validated(today: today, genders: genders, typeErrors: typeErrors)
        try await database.requireNewRecord(uuid, in: ContactsTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let email = try await addedEmail(draft, known: [])
        var digest = ContactFieldDigest()
        if let email { digest.add(email.address, isEmail: true) }
        var avatars = [
            AvatarService.Subject(contactID: nil, avatar: .automatic, gravatarHash: digest.gravatarHash)
        ]
        let lookUps = try await self.avatars(on: database).resolve(&avatars)
        let avatar = avatars[0].avatar
        let color = Avatar.defaultColor(for: uuid)
        var values = ContactsTable.values(of: fields, now: now)
        values.merge(ContactsTable.values(of: avatar)) { $1 }
        values.merge([
            .uuid: uuid, .owner: ownerID, .defaultAvatarColor: color, .searchKey: digest.searchKey(fields),
            .gravatarHash: digest.gravatarHash, .createdAt: now,
        ]) { $1 }
        return try await database.write(ownedBy: ownerID, at: now) { [values] transaction in
            // Writes first (see `AvatarService.resolve`).
            let id = try await TableWriter(ContactsTable.self, on: transaction).insert(values)
            WriteRevision.current?.reads.remember(
                OwnedContact(id: id, isArchived: fields.isArchived), of: ContactsTable.self, for: id)
            try await add(email, toContact: id, now: now, on: transaction)
            try await self.avatars(on: transaction).queueLookUps(lookUps)
            let contact = Contact(
                id: id, uuid: uuid, ownerID: ownerID, fields: fields, defaultAvatarColor: color, avatar: avatar,
                createdAt: now, updatedAt: now)
            try await reminders(on: transaction).syncBirthday(
                of: contact, wanted: birthdayReminder, hadBirthday: false)
            return contact
        }
    }

    private var genderService: GenderService {
        GenderService(database: database, ownerID: ownerID, dependencies: dependencies)
    }

    private var contactFields: ContactFieldService {
        ContactFieldService(database: database, ownerID: ownerID, dependencies: dependencies)
    }

    /// An e-mail a draft adds to its contact, and the account's E-mail kind it is stored under.
    private struct AddedEmail: Sendable {
        let address: String
        let kindID: Int
    }

    /// The draft's e-mail, unless the contact already has it among `known` (its e-mails, any case).
    private func addedEmail(_ draft: ContactDraft, known: [String]) async throws -> AddedEmail? {
        guard let address = draft.normalizedEmail, !known.contains(where: { $0.lowercased() == address }) else {
            return nil
        }
        return AddedEmail(address: address, kindID: try await contactFields.emailType().id)
    }

    private func add(_ email: AddedEmail?, toContact contactID: Int, now: Date, on database: any Database)
        async throws
    {
        guard let email else { return }
        try await TableWriter(ContactFieldsTable.self, on: database).insert([
            .uuid: dependencies.newUUID(), .owner: ownerID, .contact: contactID, .type: email.kindID,
            .data: email.address, .createdAt: now, .updatedAt: now,
        ])
    }

    /// Changes the stored contact: `change` gets the stored fields as a draft and returns the new draft,
    /// so an API update can apply only the keys it was sent and a form can replace every field.
    /// The birthday reminder follows the birthday; `birthdayReminder` turns it on or off, nil keeps it.
    /// An e-mail in the draft the contact does not have yet is added as an Email field; e-mails are
    /// changed and removed as contact fields.
    func update(
        _ id: Int, typeErrors: [FieldError] = [], birthdayReminder: Bool? = nil,
        _ change: (ContactDraft) -> ContactDraft
    ) async throws -> Contact {
        // The stored Gravatar hash in the same question: a changed first e-mail asks for its Gravatar.
        let row = try await ContactRows.requireContact(
            id, ownedBy: ownerID, selectingAlso: [.gravatarHash], on: database)
        let stored = try ContactRows.contact(from: row)
        let hashBefore = try row.text(ContactRows.columns.count)
        let draft = change(ContactDraft(stored.fields))
        // The account's genders check a draft that names one; the many that do not need none read (an
        // account with contacts has its genders seeded).
        let genders = draft.namesGender ? try await genderService.all() : []
        let fields = try draft.validated(today: today, genders: genders, typeErrors: typeErrors)
        let now = dependencies.now()
        var digest = try await contactFields.digests(ofContacts: [id])[id] ?? ContactFieldDigest()
        let newEmail = try await addedEmail(draft, known: digest.emails)
        if let newEmail { digest.add(newEmail.address, isEmail: true) }
        // A first e-mail has its own Gravatar, or none.
        var avatars = [AvatarService.Subject(contactID: id, avatar: stored.avatar, gravatarHash: digest.gravatarHash)]
        let lookUps = digest.gravatarHash != hashBefore ? try await self.avatars(on: database).resolve(&avatars) : []
        var values = ContactsTable.values(of: fields, now: now)
        values.merge(ContactsTable.values(of: avatars[0].avatar)) { $1 }
        values.merge([.searchKey: digest.searchKey(fields), .gravatarHash: digest.gravatarHash]) { $1 }
        var contact = stored
        contact.fields = fields
        contact.avatar = avatars[0].avatar
        contact.updatedAt = now
        return try await database.write(ownedBy: ownerID, at: now) { [contact, values] transaction in
            try await TableWriter(ContactsTable.self, on: transaction).update(id, ownedBy: ownerID, set: values)
            try await add(newEmail, toContact: id, now: now, on: transaction)
            try await self.avatars(on: transaction).queueLookUps(lookUps)
            try await reminders(on: transaction).syncBirthday(
                of: contact, wanted: birthdayReminder, hadBirthday: stored.fields.birthdate != nil)
            return contact
        }
    }

    /// Replaces what the contact eats or does not; blank or nil clears it.
    func updateFoodPreferences(_ id: Int, to text: String?, typeErrors: [FieldError] = []) async throws -> Contact {
        try await updateAbout(id, introduction: nil, foodPreferences: .some(text), typeErrors: typeErrors)
    }

    /// Replaces how the owner met the contact, as Monica's introduction does: everything the draft leaves
    /// out is forgotten. The contact met through must be another of the owner's contacts. `reminder`
    /// true gives a known day its yearly reminder, false takes it away, nil keeps it in step with the day.
    func updateIntroduction(
        _ id: Int, _ draft: ContactIntroductionDraft, typeErrors: [FieldError] = [], reminder: Bool? = nil
    ) async throws -> Contact {
        try await updateAbout(id, introduction: draft, foodPreferences: nil, typeErrors: typeErrors, reminder: reminder)
    }

    /// What the web's "How you met" page changes: the introduction and the food preferences, checked
    /// together and written in one revision.
    func updateIntroduction(
        _ id: Int, _ draft: ContactIntroductionDraft, foodPreferences: String?, typeErrors: [FieldError] = [],
        reminder: Bool?
    ) async throws -> Contact {
        try await updateAbout(
            id, introduction: draft, foodPreferences: .some(foodPreferences), typeErrors: typeErrors, reminder: reminder
        )
    }

    /// `introduction` nil keeps it; `foodPreferences` nil keeps them, `.some(nil)` clears them.
    private func updateAbout(
        _ id: Int, introduction draft: ContactIntroductionDraft?, foodPreferences: String??,
        typeErrors: [FieldError], reminder: Bool? = nil
    ) async throws -> Contact {
        let stored = try ContactRows.contact(
            from: try await ContactRows.requireContact(id, ownedBy: ownerID, on: database))
        let today = today
        let (introduction, food) = try ValidationFailure.checking(typeErrors: typeErrors) {
            () throws(ValidationFailure) in
            var failures: [FieldError] = []
            var introduction: ContactIntroduction?
            var food: String?? = nil
            do throws(ValidationFailure) {
                introduction = try draft?.validated(today: today)
            } catch { failures += error.errors }
            if let foodPreferences {
                do throws(ValidationFailure) {
                    food = .some(try Contact.validatedFoodPreferences(foodPreferences))
                } catch { failures += error.errors }
            }
            guard failures.isEmpty else { throw ValidationFailure(failures) }
            return (introduction, food)
        }
        if let introduction {
            if stored.fields.isArchived { throw ValidationFailure.archivedContact }
            if let through = introduction.throughContactID {
                guard through != id else {
                    throw ValidationFailure(
                        field: "met_through_contact_id", "A contact cannot have introduced themselves.",
                        reason: .conflict)
                }
                _ = try await database.requireContact(through, ownedBy: ownerID)
            }
        }
        let now = dependencies.now()
        var contact = stored
        var values: ContactsTable.Values = [.updatedAt: now]
        if let introduction {
            contact.introduction = introduction
            values.merge(ContactsTable.values(of: introduction, now: now)) { $1 }
        }
        if let food {
            contact.foodPreferences = food
            // Merged, not assigned: assigning nil would drop the key instead of clearing the column.
            values.merge([.foodPreferences: food]) { $1 }
        }
        contact.updatedAt = now
        return try await database.write(ownedBy: ownerID, at: now) { [ownerID, contact, values] transaction in
            try await TableWriter(ContactsTable.self, on: transaction).update(id, ownedBy: ownerID, set: values)
            if introduction != nil {
                try await reminders(on: transaction).syncFirstMeeting(
                    of: contact, wanted: reminder, hadDay: stored.introduction.firstMet != nil)
            }
            return contact
        }
    }

    /// The owner's "me" contact: the contact that is the person themselves, if they chose one.
    func meContact() async throws -> Contact? {
        let rows = try await database.plainRows(
            """
            SELECT \(ContactRows.columnList) FROM "contacts" WHERE "user_id" = \(literal: ownerID) AND "id" = \
            (SELECT "me_contact_id" FROM "users" WHERE "id" = \(literal: ownerID))
            """, columns: ContactRows.columns)
        return try rows.first.map(ContactRows.contact(from:))
    }

    /// Makes `id` the owner's "me" contact (nil: none). The contact that was and the one that is now
    /// take the write's revision, so the copies that show `is_me` hear of it.
    func setMeContact(_ id: Int?) async throws {
        if let id { _ = try await database.requireContact(id, ownedBy: ownerID) }
        let previous = try await database.plainRows(
            #"SELECT "me_contact_id" FROM "users" WHERE "id" = \#(literal: ownerID)"#, columns: ["me_contact_id"]
        ).first?.integer(0)
        guard previous != id else { return }
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            try await TableWriter(UsersTable.self, on: transaction).update(
                [.meContact: id], where: #""id" = \#(literal: ownerID)"#)
            let touched = [previous, id].compactMap { $0 }
            try await TableWriter(ContactsTable.self, on: transaction).touch(
                where: SQLQueryString.owned(by: ownerID, ids: touched))
        }
    }

    private func reminders(on database: any Database) -> ReminderService {
        ReminderService(database: database, ownerID: ownerID, dependencies: dependencies)
    }

    private func avatars(on database: any Database) -> AvatarService {
        AvatarService(database: database, ownerID: ownerID, dependencies: dependencies)
    }

    /// Deletes the contact with its addresses, reminders and photos; the photos' bytes go too unless
    /// another photo of the account shows them.
    func delete(_ id: Int) async throws {
        _ = try await database.requireContact(id, ownedBy: ownerID)
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            let contacts = TableWriter(ContactsTable.self, on: transaction)
            // Those met through it forget whom through in the same revision, so their copies hear of it
            // (the foreign key would forget it too, unheard).
            try await contacts.update(
                [.firstMetThrough: Int?.none],
                where: #""user_id" = \#(literal: ownerID) AND "first_met_through_contact_id" = \#(literal: id)"#)
            try await contacts.delete(id, ownedBy: ownerID)
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
    }

    private func ordering(_ order: ContactOrder) -> SQLQueryString {
        switch order {
        case .listing:
            return #""is_starred" DESC, "search_key" ASC, "id" ASC"#
        case .sorted(let sort):
            let direction: SQLQueryString = sort.isDescending ? "DESC" : "ASC"
            let column = sort.field == .createdAt ? "created_at" : "updated_at"
            return #""\#(unsafeRaw: column)" \#(direction), "id" \#(direction)"#
        }
    }
}

extension ContactDraft {
    /// The stored fields as a draft, so an update can change some keys and keep the rest.
    init(_ fields: ContactFields) {
        self.init(
            firstName: fields.firstName, lastName: fields.lastName, nickname: fields.nickname,
            description: fields.description, isBirthdateKnown: fields.birthdate != nil,
            birthdateDay: fields.birthdate?.day, birthdateMonth: fields.birthdate?.month,
            birthdateYear: fields.birthdate?.year, birthdateIsAgeBased: fields.birthdate?.isAgeBased ?? false,
            genderID: fields.gender?.id, job: fields.job, company: fields.company, isStarred: fields.isStarred,
            isArchived: fields.isArchived)
    }
}
