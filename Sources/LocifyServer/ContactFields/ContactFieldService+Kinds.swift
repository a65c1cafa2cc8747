import Fluent
import Foundation
import LocifyCore
import SQLKit

extension ContactFieldService {

    /// The owner's field types, oldest first; Monica's defaults are made when the owner has none. Every
    /// other question about kinds starts here, so a kind is never looked for before the defaults exist.
    func types() async throws -> [ContactFieldType] {
        let existing = try await storedTypes()
        if !existing.isEmpty { return existing }
        let (now, newUUID) = (dependencies.now(), dependencies.newUUID)
        try await database.write(ContactFieldTypesTable.self, ownedBy: ownerID, at: now) { [ownerID] kinds in
            // Asked again under the account's write lock: two first requests at once seed once.
            let seeded = try await kinds.database.plainRows(
                #"SELECT "id" FROM "contact_field_types" WHERE "user_id" = \#(literal: ownerID) LIMIT 1"#,
                columns: ["id"])
            guard seeded.isEmpty else { return }
            try await kinds.insert(
                ContactFieldType.defaults.map { kind in
                    [
                        .uuid: newUUID(), .owner: ownerID, .name: kind.name, .icon: kind.icon,
                        .linkProtocol: kind.linkProtocol, .isDelible: kind.isDelible, .type: kind.type,
                        .createdAt: now, .updatedAt: now,
                    ]
                })
        }
        return try await storedTypes()
    }

    private func storedTypes() async throws -> [ContactFieldType] {
        let columns = ContactFieldTypesTable.typeColumns
        return try await database.plainRows(
            #"SELECT \#(columns.list) FROM "contact_field_types" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: columns.names
        ).map(ContactFieldTypesTable.type(from:))
    }

    /// The owner's E-mail kind: seeded, never deleted, and its `type` never changes.
    func emailType() async throws -> ContactFieldType {
        guard let kind = try await types().first(where: { $0.type == ContactFieldType.emailType }) else {
            throw AppError.notFound
        }
        return kind
    }

    func type(_ id: Int) async throws -> ContactFieldType {
        guard let kind = try await types().first(where: { $0.id == id }) else { throw AppError.notFound }
        return kind
    }

    func createType(
        name: String?, icon: String?, linkProtocol: String?, type: String?, typeErrors: [FieldError] = [],
        uuid: UUID? = nil
    ) async throws -> ContactFieldType {
        _ = try await types()
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ContactFieldType.validated(
                name: name, icon: icon, linkProtocol: linkProtocol, type: type, storedType: nil)
        }
        try await database.requireNewRecord(uuid, in: ContactFieldTypesTable.self, ownedBy: ownerID)
        let (uuid, now) = (uuid ?? dependencies.newUUID(), dependencies.now())
        let values: ContactFieldTypesTable.Values = [
            .uuid: uuid, .owner: ownerID, .name: checked.name, .icon: checked.icon,
            .linkProtocol: checked.linkProtocol, .isDelible: true, .type: checked.type, .createdAt: now,
            .updatedAt: now,
        ]
        let id = try await database.write(ContactFieldTypesTable.self, ownedBy: ownerID, at: now) {
            try await $0.insert(values)
        }
        return ContactFieldType(
            id: id, uuid: uuid, ownerID: ownerID, name: checked.name, icon: checked.icon,
            linkProtocol: checked.linkProtocol, isDelible: true, type: checked.type, createdAt: now, updatedAt: now)
    }

    /// Changes a field type (Monica asks for every key again; a key left out keeps its value here).
    func updateType(
        _ id: Int, name: String??, icon: String??, linkProtocol: String??, type: String??,
        typeErrors: [FieldError] = []
    ) async throws -> ContactFieldType {
        var kind = try await self.type(id)
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try ContactFieldType.validated(
                name: name ?? kind.name, icon: icon ?? kind.icon, linkProtocol: linkProtocol ?? kind.linkProtocol,
                type: type ?? kind.type, storedType: kind.type)
        }
        let now = dependencies.now()
        let values: ContactFieldTypesTable.Values = [
            .name: checked.name, .icon: checked.icon, .linkProtocol: checked.linkProtocol, .type: checked.type,
            .updatedAt: now,
        ]
        try await database.write(ContactFieldTypesTable.self, ownedBy: ownerID, at: now) { [ownerID] in
            try await $0.update(id, ownedBy: ownerID, set: values)
        }
        kind.name = checked.name
        kind.icon = checked.icon
        kind.linkProtocol = checked.linkProtocol
        kind.type = checked.type
        kind.updatedAt = now
        return kind
    }

    /// Deletes a field type with its fields; E-mail and Phone stay (Monica's API ignored `delible`).
    func deleteType(_ id: Int) async throws {
        let kind = try await type(id)
        guard kind.isDelible else {
            throw ValidationFailure(
                field: "id", "“\(kind.name)” cannot be deleted: contacts' e-mails and phone numbers depend on it.",
                reason: .conflict)
        }
        let affected = try await database.plainRows(
            """
            SELECT DISTINCT "contact_id" FROM "contact_fields" \
            WHERE "user_id" = \(literal: ownerID) AND "contact_field_type_id" = \(literal: id)
            """, columns: ["contact_id"]
        ).map { try $0.requiredInteger(0) }
        try await writingFields(of: affected) { transaction in
            try await TableWriter(ContactFieldTypesTable.self, on: transaction).delete(id, ownedBy: ownerID)
        }
    }
}
