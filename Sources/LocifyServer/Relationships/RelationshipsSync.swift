import LocifyAPI
import SQLKit
import Vapor

extension SyncedType {
    static let relationship = SyncedType(RelationshipsTable.self, writes: .relationship, restore: .relationship) {
        request, ids in
        let relationships = try await request.ownedRows(
            ids, in: RelationshipsTable.self, selecting: RelationshipsTable.relationshipColumns,
            read: RelationshipsTable.relationship(from:))
        return byID(try await request.relationshipResources(relationships), id: \.id, as: SyncRecord.relationship)
    }
}

extension SyncWrites {
    /// A pushed relationship makes its other side too, which the client hears of on its next pull; an
    /// update changes only the type, as on the API.
    static let relationship = SyncWrites(
        reading: RelationshipInput.self, fields: ["contact_is", "of_contact", "relationship_type_id"],
        references: [.contactIs, .ofContact],
        create: { request, input, uuid in
            try await request.relationships().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.relationships().update(id, typeID: input.draft.typeID, typeErrors: input.typeErrors)
        },
        delete: { request, id, _ in try await request.relationships().delete(id) })
}

extension OfflinePages {
    /// A relationship shows on the page of its contact; its other side, changed in the same write, on the
    /// other contact's.
    static let relationship = onContactPage(SyncedType.relationship.name, key: ["contact_is", "id"])
}

extension SyncReference {
    /// The two contacts of a relationship made offline, by the uuids the client made them with.
    static let contactIs = SyncReference("contact_is_uuid", for: "contact_is", in: ContactsTable.self)
    static let ofContact = SyncReference("of_contact_uuid", for: "of_contact", in: ContactsTable.self)
}

extension ArchiveRestore {
    /// A relationship is made with its reverse: the reverse in the archive is the one made already.
    static let relationship = ArchiveRestore(
        writes: .relationship, existingComesWithTheImport: true,
        existing: { request, record, ids in
            guard let contactID = try ids.id(of: "contact", record.referencedID("contact_is")),
                let ofContactID = try ids.id(of: "contact", record.referencedID("of_contact")),
                let typeID = record.referencedID("relationship_type")
            else { return nil }
            let rows = try await request.database.plainRows(
                """
                SELECT "id" FROM "relationships" WHERE "user_id" = \(bind: try request.requireUser().id) \
                AND "contact_id" = \(bind: contactID) AND "of_contact_id" = \(bind: ofContactID) \
                AND "relationship_type_id" = \(bind: typeID)
                """, columns: ["id"])
            return try rows.first?.requiredInteger(0)
        },
        fields: { record, ids in
            try record.fields(
                ["relationship_type_id"], references: ["contact_is": "contact", "of_contact": "contact"], ids: ids)
        })
}
