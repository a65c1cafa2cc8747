import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The contact fields of one owner and their kinds, seeded with Monica's seven the first time asked.
struct ContactFieldService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    // MARK: Fields

    private static let columns = ContactFieldsTable.fieldColumns

    /// The owner's fields of each of `contactIDs` (all of them, by id), with their labels.
    func fields(ofContacts contactIDs: [Int]) async throws -> [ContactField] {
        guard !contactIDs.isEmpty else { return [] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "contact_fields" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, idColumn: "contact_id")) ORDER BY "id"
            """, columns: Self.columns.names)
        return try await withLabels(rows)
    }

    /// One page of a contact's fields, by id.
    func page(ofContact contactID: Int, page: PageSelection) async throws -> ([ContactField], PageWindow) {
        page.slice(try await fields(ofContacts: [contactID]))
    }

    func field(_ id: Int) async throws -> ContactField {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "contact_fields" WHERE \(ContactFieldsTable.ownedRow(id, ownedBy: ownerID))
            """, columns: Self.columns.names)
        guard let field = try await withLabels(rows).first else { throw AppError.notFound }
        return field
    }

    /// The owner's fields among `ids`, with their labels; other ids are left out.
    func fields(_ ids: [Int]) async throws -> [ContactField] {
        guard !ids.isEmpty else { return [] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "contact_fields" WHERE \(SQLQueryString.owned(by: ownerID, ids: ids)) \
            ORDER BY "id"
            """, columns: Self.columns.names)
        return try await withLabels(rows)
    }

    private func withLabels(_ rows: [PlainRow]) async throws -> [ContactField] {
        let ids = try rows.map { try $0.requiredInteger(0) }
        var labels: [Int: [ContactField.StoredLabel]] = [:]
        if !ids.isEmpty {
            let columns = ContactFieldLabelsTable.labelColumns
            let labelRows = try await database.plainRows(
                """
                SELECT \(columns.list) FROM "contact_field_labels" \
                WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, idColumn: "contact_field_id")) ORDER BY "id"
                """, columns: columns.names)
            for row in labelRows {
                let (fieldID, label) = try ContactFieldLabelsTable.label(from: row)
                labels[fieldID, default: []].append(label)
            }
        }
        return try rows.map { try ContactFieldsTable.field(from: $0, labels: labels) }
    }

    /// What a create or an update sent.
    struct Input {
        var contactID: Int?
        var typeID: Int?
        var data: String?
        /// nil or empty: the labels stay (on create: none), unless `labelsAreTheWholeSet`.
        var labels: [String]?
        /// The labels sent replace the set even when there are none: a web form that clears them.
        var labelsAreTheWholeSet = false
        var typeErrors: [FieldError] = []
        /// The uuid a client named a new field by (see `Request.answerCreate`).
        var uuid: UUID?
    }

    /// Creates a field; every key is required (Monica's rules), and the contact must not be archived.
    func create(_ input: Input) async throws -> ContactField {
        let (data, contactID, typeID) = try check(input)
        try await database.requireNewRecord(input.uuid, in: ContactFieldsTable.self, ownedBy: ownerID)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        var values = newField(contactID: contactID, typeID: typeID, data: data, now: now)
        if let uuid = input.uuid { values[.uuid] = uuid }
        let id = try await writingFields(of: [contactID]) { [values] transaction in
            let id = try await TableWriter(ContactFieldsTable.self, on: transaction).insert(values)
            try await replaceLabels(of: id, with: input.labels ?? [], now: now, on: transaction)
            return id
        }
        return try await field(id)
    }

    /// Creates several fields of one contact at once, as an import does: each is checked on its own (a
    /// refused one comes back with its problem, the others are made), and all are written in one
    /// transaction with one refresh of the contact's search key and Gravatar. `kinds` are the owner's
    /// (`types()`), read once by the caller for a whole file.
    func create(_ drafts: [ContactFieldDraft], forContact contactID: Int, kinds: [ContactFieldType]) async throws
        -> [(draft: ContactFieldDraft, failure: ValidationFailure)]
    {
        guard !drafts.isEmpty else { return [] }
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        let kindIDs = Set(kinds.map(\.id))
        var refused: [(draft: ContactFieldDraft, failure: ValidationFailure)] = []
        var accepted: [(values: TableWriter<ContactFieldsTable>.Values, labels: [String])] = []
        let now = dependencies.now()
        for draft in drafts {
            do {
                if contact.isArchived { throw ValidationFailure.archivedContact }
                guard kindIDs.contains(draft.typeID) else {
                    throw ValidationFailure(
                        field: "contact_field_type_id", "That kind of field is not one of yours.",
                        reason: .unknownReference)
                }
                let (data, _, typeID) = try check(
                    Input(contactID: contactID, typeID: draft.typeID, data: draft.data, labels: draft.labels))
                accepted.append((newField(contactID: contactID, typeID: typeID, data: data, now: now), draft.labels))
            } catch let failure as ValidationFailure {
                refused.append((draft, failure))
            }
        }
        guard !accepted.isEmpty else { return refused }
        let toWrite = accepted
        try await writingFields(of: [contactID]) { transaction in
            let fields = TableWriter(ContactFieldsTable.self, on: transaction)
            for (values, labels) in toWrite {
                try await replaceLabels(of: try await fields.insert(values), with: labels, now: now, on: transaction)
            }
        }
        return refused
    }

    /// Changes a field: the same keys again (it may move to another contact or kind); labels sent
    /// replace the set.
    func update(_ id: Int, _ input: Input) async throws -> ContactField {
        let formerContactID = try await contactID(ofField: id)
        let (data, contactID, typeID) = try check(input)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        try await writingFields(of: [formerContactID, contactID]) { transaction in
            try await TableWriter(ContactFieldsTable.self, on: transaction).update(
                id, ownedBy: ownerID, set: [.contact: contactID, .type: typeID, .data: data, .updatedAt: now])
            if let labels = input.labels, !labels.isEmpty || input.labelsAreTheWholeSet {
                try await replaceLabels(of: id, with: labels, now: now, on: transaction)
            }
        }
        return try await field(id)
    }

    func delete(_ id: Int) async throws {
        try await writingFields(of: [try await contactID(ofField: id)]) { transaction in
            try await TableWriter(ContactFieldsTable.self, on: transaction).delete(id, ownedBy: ownerID)
        }
    }

    /// The contact of the owner's field `id`: one column, not the field with its labels.
    private func contactID(ofField id: Int) async throws -> Int {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: ContactFieldsTable.self, selecting: Self.contactOfField,
            read: { try $0.requiredInteger(0) })
    }

    private static let contactOfField = ContactFieldsTable.selection([.contact])

    /// The columns of a new field.
    private func newField(contactID: Int, typeID: Int, data: String, now: Date)
        -> TableWriter<ContactFieldsTable>.Values
    {
        [
            .uuid: dependencies.newUUID(), .owner: ownerID, .contact: contactID, .type: typeID, .data: data,
            .createdAt: now, .updatedAt: now,
        ]
    }

    /// Runs `write`, a change to the fields of `contactIDs`, in one transaction with the contacts' search
    /// keys and Gravatar hashes following it (`refreshDerived`); a contact whose first e-mail
    /// changed then shows that e-mail's Gravatar, or none.
    @discardableResult
    func writingFields<Written: Sendable>(
        of contactIDs: [Int], _ write: @escaping @Sendable (any Database) async throws -> Written
    ) async throws -> Written {
        let (written, changed) = try await database.write(ownedBy: ownerID, at: dependencies.now()) { transaction in
            let written = try await write(transaction)
            return (
                written,
                try await Self(database: transaction, ownerID: ownerID, dependencies: dependencies)
                    .refreshDerived(ofContacts: contactIDs)
            )
        }
        if !changed.isEmpty {
            try await AvatarService(database: database, ownerID: ownerID, dependencies: dependencies)
                .refresh(.contacts(changed))
        }
        return written
    }

    /// Stores what the contacts' names and fields give them where it changed, leaving `updated_at`;
    /// returns the contacts whose Gravatar hash changed.
    func refreshDerived(ofContacts contactIDs: [Int]) async throws -> [Int] {
        let changes = try await ContactFieldDigest.derivedChanges(
            ofContacts: contactIDs, ownerID: ownerID, on: database)
        let contacts = TableWriter(ContactsTable.self, on: database)
        for change in changes {
            try await contacts.update(
                change.contactID, ownedBy: ownerID,
                set: [.searchKey: change.searchKey, .gravatarHash: change.gravatarHash])
        }
        return changes.filter(\.gravatarChanged).map(\.contactID)
    }

    func digests(ofContacts contactIDs: [Int]) async throws -> [Int: ContactFieldDigest] {
        try await ContactFieldDigest.digests(ofContacts: contactIDs, ownerID: ownerID, on: database)
    }

    /// Every e-mail of the owner's contacts, lower case: imports and the demo seed skip people already there.
    func allEmails() async throws -> Set<String> {
        let rows = try await database.plainRows(
            """
            SELECT "contact_fields"."data" FROM "contact_fields" JOIN "contact_field_types" \
            ON "contact_field_types"."id" = "contact_fields"."contact_field_type_id" \
            WHERE "contact_fields"."user_id" = \(literal: ownerID) \
            AND "contact_field_types"."type" = \(bind: ContactFieldType.emailType)
            """, columns: ["data"])
        return Set(try rows.map { try $0.requiredText(0).lowercased() })
    }

    /// The first e-mail of each of `contactIDs` that has one, for lists that show it.
    func firstEmails(ofContacts contactIDs: [Int]) async throws -> [Int: String] {
        try await digests(ofContacts: contactIDs).compactMapValues(\.emails.first)
    }

    private func check(_ input: Input) throws -> (data: String, contactID: Int, typeID: Int) {
        var problems = input.typeErrors
        let typed = Set(problems.map(\.field))
        if input.contactID == nil, !typed.contains("contact_id") {
            problems.append(FieldError(field: "contact_id", message: "Choose the contact this field belongs to."))
        }
        if input.typeID == nil, !typed.contains("contact_field_type_id") {
            problems.append(
                FieldError(field: "contact_field_type_id", message: "Choose the kind of field (contact_field_type_id).")
            )
        }
        problems += ContactField.labelProblems(input.labels)
        let data = try ValidationFailure.checking(typeErrors: problems) { () throws(ValidationFailure) in
            try ContactField.validatedData(input.data)
        }
        guard let contactID = input.contactID, let typeID = input.typeID else { throw ValidationFailure(problems) }
        return (data, contactID, typeID)
    }

    private func requireWritable(contactID: Int, typeID: Int) async throws {
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        _ = try await type(typeID)
        if contact.isArchived {
            throw ValidationFailure.archivedContact
        }
    }

    private func replaceLabels(of fieldID: Int, with texts: [String], now: Date, on database: any Database)
        async throws
    {
        let labels = TableWriter(ContactFieldLabelsTable.self, on: database)
        try await labels.delete(where: #""contact_field_id" = \#(literal: fieldID)"#)
        var seen: Set<String> = []
        for label in texts.compactMap(ContactFieldLabel.init) where seen.insert(label.type.lowercased()).inserted {
            try await labels.insert([
                .owner: ownerID, .field: fieldID, .type: label.type, .label: label.label, .createdAt: now,
                .updatedAt: now,
            ])
        }
    }
}

extension ContactFieldService {
    /// How many fields each of the owner's kinds has, by kind id (kinds without any are left out).
    func fieldCounts() async throws -> [Int: Int] {
        let rows = try await database.plainRows(
            """
            SELECT "contact_field_type_id", COUNT(*) AS "fields" FROM "contact_fields" \
            WHERE "user_id" = \(literal: ownerID) GROUP BY "contact_field_type_id"
            """, columns: ["contact_field_type_id", "fields"])
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.requiredInteger(0), try $0.requiredInteger(1)) })
    }
}
