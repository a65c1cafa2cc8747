import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The contact fields of one owner and their kinds, seeded with Monica's seven the first time asked.
struct ContactFieldService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    // MARK: Kinds

    /// The owner's field types, oldest first; Monica's defaults are made when the owner has none.
    func types() async throws -> [ContactFieldType] {
        try await typeModels().map { try $0.value() }
    }

    /// The owner's field type rows, seeded the first time: every other question about kinds starts here.
    private func typeModels() async throws -> [ContactFieldTypeModel] {
        let existing = try await ContactFieldTypeModel.owned(by: ownerID, on: database).sort(\.$id).all()
        if !existing.isEmpty { return existing }
        let now = dependencies.now()
        let made = ContactFieldType.defaults.map { kind in
            let model = ContactFieldTypeModel(ownerID: ownerID, uuid: dependencies.newUUID(), name: kind.name, now: now)
            model.icon = kind.icon
            model.linkProtocol = kind.linkProtocol
            model.isDelible = kind.isDelible
            model.type = kind.type
            return model
        }
        try await database.transaction { transaction in
            for model in made { try await model.save(on: transaction) }
        }
        return made
    }

    private func typeModel(_ id: Int) async throws -> ContactFieldTypeModel {
        guard let model = try await typeModels().first(where: { $0.id == id }) else { throw AppError.notFound }
        return model
    }

    func type(_ id: Int) async throws -> ContactFieldType {
        try await typeModel(id).value()
    }

    func createType(name: String?, icon: String?, linkProtocol: String?, type: String?, typeErrors: [FieldError] = [])
        async throws -> ContactFieldType
    {
        _ = try await typeModels()
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ContactFieldType.validated(name: name, icon: icon, linkProtocol: linkProtocol, type: type)
        }
        let model = ContactFieldTypeModel(
            ownerID: ownerID, uuid: dependencies.newUUID(), name: checked.name, now: dependencies.now())
        model.icon = checked.icon
        model.linkProtocol = checked.linkProtocol
        model.type = checked.type
        try await model.save(on: database)
        return try model.value()
    }

    /// Changes a field type (Monica asks for every key again; a key left out keeps its value here).
    func updateType(
        _ id: Int, name: String??, icon: String??, linkProtocol: String??, type: String??,
        typeErrors: [FieldError] = []
    ) async throws -> ContactFieldType {
        let model = try await typeModel(id)
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ContactFieldType.validated(
                name: name ?? model.name, icon: icon ?? model.icon, linkProtocol: linkProtocol ?? model.linkProtocol,
                type: type ?? model.type)
        }
        model.name = checked.name
        model.icon = checked.icon
        model.linkProtocol = checked.linkProtocol
        model.type = checked.type
        model.updatedAt = dependencies.now()
        try await model.save(on: database)
        return try model.value()
    }

    /// Deletes a field type with its fields; E-mail and Phone stay (Monica's API ignored `delible`).
    func deleteType(_ id: Int) async throws {
        let model = try await typeModel(id)
        guard model.isDelible else {
            throw ValidationFailure(
                field: "id", "“\(model.name)” cannot be deleted: contacts' e-mails and phone numbers depend on it.")
        }
        try await model.delete(on: database)
    }

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
        /// nil or empty: the labels stay (on create: none).
        var labels: [String]?
        var typeErrors: [FieldError] = []
    }

    /// Creates a field; every key is required (Monica's rules), and the contact must not be archived.
    func create(_ input: Input) async throws -> ContactField {
        let (data, contactID, typeID) = try check(input)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        let model = ContactFieldModel(
            ownerID: ownerID, contactID: contactID, typeID: typeID, uuid: dependencies.newUUID(), data: data, now: now)
        try await database.transaction { transaction in
            try await model.save(on: transaction)
            try await replaceLabels(of: try model.requireID(), with: input.labels ?? [], now: now, on: transaction)
        }
        return try await field(try model.requireID())
    }

    /// Changes a field: the same keys again (it may move to another contact or kind); labels sent
    /// replace the set.
    func update(_ id: Int, _ input: Input) async throws -> ContactField {
        let model = try await ContactFieldModel.requireOwned(id, by: ownerID, on: database)
        let (data, contactID, typeID) = try check(input)
        try await requireWritable(contactID: contactID, typeID: typeID)
        let now = dependencies.now()
        model.$contact.id = contactID
        model.typeID = typeID
        model.data = data
        model.updatedAt = now
        try await database.transaction { transaction in
            try await model.save(on: transaction)
            if let labels = input.labels, !labels.isEmpty {
                try await replaceLabels(of: id, with: labels, now: now, on: transaction)
            }
        }
        return try await field(id)
    }

    func delete(_ id: Int) async throws {
        try await ContactFieldModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
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
        if let labels = input.labels,
            labels.contains(where: { $0.unicodeScalars.count > ContactField.maximumDataLength })
        {
            problems.append(FieldError(field: "labels", message: "Each label must be at most 255 characters."))
        }
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
            throw ValidationFailure(field: "contact_id", "Archived contact can’t be edited, please unarchive it first.")
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
