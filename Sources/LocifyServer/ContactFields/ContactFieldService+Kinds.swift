import Fluent
import Foundation
import LocifyCore
import SQLKit

extension ContactFieldService {

    /// The owner's field types, oldest first; Monica's defaults are made when the owner has none.
    func types() async throws -> [ContactFieldType] {
        try await typeModels().map { try $0.value() }
    }

    /// The owner's field type rows, seeded the first time: every other question about kinds starts here.
    private func typeModels() async throws -> [ContactFieldTypeModel] {
        let existing = try await ContactFieldTypeModel.owned(by: ownerID, on: database).sort(\.$id).all()
        if !existing.isEmpty { return existing }
        let (now, newUUID) = (dependencies.now(), dependencies.newUUID)
        try await database.transaction { transaction in
            try await ContactFieldTypeModel.insertDefaults(
                ownerID: ownerID, on: transaction, now: now, newUUID: newUUID)
        }
        return try await ContactFieldTypeModel.owned(by: ownerID, on: database).sort(\.$id).all()
    }

    /// The owner's E-mail kind: seeded, never deleted, and its `type` never changes.
    func emailType() async throws -> ContactFieldType {
        guard let model = try await typeModels().first(where: { $0.type == ContactFieldType.emailType }) else {
            throw AppError.notFound
        }
        return try model.value()
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
            try ContactFieldType.validated(
                name: name, icon: icon, linkProtocol: linkProtocol, type: type, storedType: nil)
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
                type: type ?? model.type, storedType: model.type)
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
                field: "id", "“\(model.name)” cannot be deleted: contacts' e-mails and phone numbers depend on it.",
                reason: .conflict)
        }
        let affected = try await database.plainRows(
            """
            SELECT DISTINCT "contact_id" FROM "contact_fields" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_field_type_id" = \(literal: id)
            """, columns: ["contact_id"]
        ).map { try $0.requiredInteger(0) }
        try await writingFields(of: affected) { transaction in try await model.delete(on: transaction) }
    }
}
