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

    static let columns = [
        "id", "uuid", "user_id", "contact_id", "contact_field_type_id", "data", "created_at", "updated_at",
    ]

    /// The owner's fields of each of `contactIDs` (all of them, by id), with their labels.
    func fields(ofContacts contactIDs: [Int]) async throws -> [ContactField] {
        guard !contactIDs.isEmpty else { return [] }
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(Self.columns)) FROM "contact_fields" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, idColumn: "contact_id")) ORDER BY "id"
            """, columns: Self.columns)
        return try await withLabels(rows)
    }

    /// One page of a contact's fields, by id.
    func page(ofContact contactID: Int, page: PageSelection) async throws -> ([ContactField], PageWindow) {
        let all = try await fields(ofContacts: [contactID])
        let start = min(page.offset, all.count)
        return (Array(all[start..<min(start + page.limit, all.count)]), page.window(total: all.count))
    }

    func field(_ id: Int) async throws -> ContactField {
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(Self.columns)) FROM "contact_fields" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: Self.columns)
        guard let field = try await withLabels(rows).first else { throw AppError.notFound }
        return field
    }

    private func withLabels(_ rows: [PlainRow]) async throws -> [ContactField] {
        let ids = try rows.map { try $0.requiredInteger(0) }
        var labels: [Int: [ContactField.StoredLabel]] = [:]
        if !ids.isEmpty {
            let columns = ["contact_field_id", "id", "type", "label", "created_at"]
            let labelRows = try await database.plainRows(
                """
                SELECT \(SQLQueryString.columnList(columns)) FROM "contact_field_labels" \
                WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, idColumn: "contact_field_id")) ORDER BY "id"
                """, columns: columns)
            for row in labelRows {
                labels[try row.requiredInteger(0), default: []].append(
                    ContactField.StoredLabel(
                        id: try row.requiredInteger(1),
                        label: ContactFieldLabel(type: try row.requiredText(2), label: try row.requiredText(3)),
                        createdAt: try row.requiredDate(4)))
            }
        }
        return try rows.map { row in
            let id = try row.requiredInteger(0)
            return ContactField(
                id: id, uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
                contactID: try row.requiredInteger(3), typeID: try row.requiredInteger(4),
                data: try row.requiredText(5),
                labels: labels[id] ?? [], createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
        }
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
    }

    /// Creates a field; every key is required (Monica's rules), and the contact must not be archived.
    func create(_ input: Input) async throws -> ContactField {
        let (data, contactID, typeID) = try check(input)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        let model = ContactFieldModel(
            ownerID: ownerID, contactID: contactID, typeID: typeID, uuid: dependencies.newUUID(), data: data, now: now)
        try await writingFields(of: [contactID]) { transaction in
            try await model.save(on: transaction)
            try await replaceLabels(of: try model.requireID(), with: input.labels ?? [], now: now, on: transaction)
        }
        return try await field(try model.requireID())
    }

    /// Creates several fields of one contact at once, as an import does: each is checked on its own (a
    /// refused one comes back with its problem, the others are made), and all are written in one
    /// transaction with one refresh of the contact's search key and Gravatar. `kinds` are the owner's
    /// (`types()`), read once by the caller for a whole file.
    func create(_ drafts: [ContactFieldDraft], forContact contactID: Int, kinds: [ContactFieldType]) async throws
        -> [(draft: ContactFieldDraft, failure: ValidationFailure)]
    {
        guard !drafts.isEmpty else { return [] }
        let contact = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        let kindIDs = Set(kinds.map(\.id))
        var refused: [(draft: ContactFieldDraft, failure: ValidationFailure)] = []
        var accepted: [(model: ContactFieldModel, labels: [String])] = []
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
                let model = ContactFieldModel(
                    ownerID: ownerID, contactID: contactID, typeID: typeID, uuid: dependencies.newUUID(), data: data,
                    now: now)
                accepted.append((model, draft.labels))
            } catch let failure as ValidationFailure {
                refused.append((draft, failure))
            }
        }
        guard !accepted.isEmpty else { return refused }
        let toWrite = accepted
        try await writingFields(of: [contactID]) { transaction in
            for (model, labels) in toWrite {
                try await model.save(on: transaction)
                try await replaceLabels(of: try model.requireID(), with: labels, now: now, on: transaction)
            }
        }
        return refused
    }

    /// Changes a field: the same keys again (it may move to another contact or kind); labels sent
    /// replace the set.
    func update(_ id: Int, _ input: Input) async throws -> ContactField {
        let model = try await ContactFieldModel.requireOwned(id, by: ownerID, on: database)
        let (data, contactID, typeID) = try check(input)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        let formerContactID = model.$contact.id
        model.$contact.id = contactID
        model.typeID = typeID
        model.data = data
        model.updatedAt = now
        try await writingFields(of: [formerContactID, contactID]) { transaction in
            try await model.save(on: transaction)
            if let labels = input.labels, !labels.isEmpty || input.labelsAreTheWholeSet {
                try await replaceLabels(of: id, with: labels, now: now, on: transaction)
            }
        }
        return try await field(id)
    }

    func delete(_ id: Int) async throws {
        let model = try await ContactFieldModel.requireOwned(id, by: ownerID, on: database)
        try await writingFields(of: [model.$contact.id]) { transaction in try await model.delete(on: transaction) }
    }

    /// Runs `write`, a change to the fields of `contactIDs`, in one transaction with the contacts' search
    /// keys and Gravatar hashes following it (`ContactModel.applyDerived`); a contact whose first e-mail
    /// changed then shows that e-mail's Gravatar, or none.
    func writingFields(of contactIDs: [Int], _ write: @escaping @Sendable (any Database) async throws -> Void)
        async throws
    {
        let changed = try await database.transaction { transaction in
            try await write(transaction)
            return try await Self(database: transaction, ownerID: ownerID, dependencies: dependencies)
                .refreshDerived(ofContacts: contactIDs)
        }
        if !changed.isEmpty {
            try await AvatarService(database: database, ownerID: ownerID, dependencies: dependencies)
                .refresh(.contacts(changed))
        }
    }

    func refreshDerived(ofContacts contactIDs: [Int]) async throws -> [Int] {
        try await ContactFieldDigest.refresh(ofContacts: contactIDs, ownerID: ownerID, on: database)
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
        let contact = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        _ = try await type(typeID)
        if contact.isArchived {
            throw ValidationFailure.archivedContact
        }
    }

    private func replaceLabels(of fieldID: Int, with texts: [String], now: Date, on database: any Database)
        async throws
    {
        let sql = try database.sqlDatabase()
        try await sql.raw(#"DELETE FROM "contact_field_labels" WHERE "contact_field_id" = \#(literal: fieldID)"#).run()
        var seen: Set<String> = []
        for label in texts.compactMap(ContactFieldLabel.init) where seen.insert(label.type.lowercased()).inserted {
            try await sql.raw(
                """
                INSERT INTO "contact_field_labels" ("user_id", "contact_field_id", "type", "label", "created_at", \
                "updated_at") VALUES (\(literal: ownerID), \(literal: fieldID), \(bind: label.type), \
                \(bind: label.label), \(bind: now), \(bind: now))
                """
            ).run()
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
