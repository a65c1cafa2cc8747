import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The relationships between one owner's contacts. Every change is made to both sides in one write, so
/// "Anna is Ben's parent" never stands without "Ben is Anna's child".
struct RelationshipService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    private static let columns = RelationshipsTable.relationshipColumns

    /// The contact's side of each of its relationships, oldest first; a contact that is not the owner's
    /// is not found, as on every other list of a contact's (Monica answers an empty list there).
    func relationships(of contactID: Int) async throws -> [Relationship] {
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        return try await relationships(ofContacts: [contactID])[contactID] ?? []
    }

    /// Each contact's sides, oldest first, in one query.
    func relationships(ofContacts ids: [Int]) async throws -> [Int: [Relationship]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "relationships" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: ids, idColumn: "contact_id")) ORDER BY "contact_id", "id"
            """, columns: Self.columns.names)
        return Dictionary(grouping: try rows.map(RelationshipsTable.relationship(from:)), by: \.contactID)
    }

    func relationship(_ id: Int) async throws -> Relationship {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: RelationshipsTable.self, selecting: Self.columns,
            read: RelationshipsTable.relationship(from:))
    }

    /// Adds the relationship and its other side. Both contacts must be the owner's (else not found), the
    /// first one not archived, and the two not already related that way.
    func create(_ draft: RelationshipDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Relationship
    {
        let (contactID, ofContactID, type) = try ValidationFailure.checking(typeErrors: typeErrors) {
            () throws(ValidationFailure) in try draft.validated()
        }
        try await database.requireNewRecord(uuid, in: RelationshipsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        _ = try await database.requireContact(ofContactID, ownedBy: ownerID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let reverseUUID = dependencies.newUUID()
        let id = try await database.write(RelationshipsTable.self, ownedBy: ownerID, at: now) { [ownerID] table in
            try await Self.requireUnrelated(contactID, ofContactID, as: type, except: [], on: table.database)
            let sides: [(UUID, Int, Int, RelationshipType)] = [
                (uuid, contactID, ofContactID, type), (reverseUUID, ofContactID, contactID, type.reverse),
            ]
            var ids: [Int] = []
            for (uuid, contact, ofContact, type) in sides {
                ids.append(
                    try await table.insert([
                        .uuid: uuid, .owner: ownerID, .contact: contact, .ofContact: ofContact, .type: type.id,
                        .createdAt: now, .updatedAt: now,
                    ]))
            }
            return ids[0]
        }
        return Relationship(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, ofContactID: ofContactID, type: type,
            createdAt: now, updatedAt: now)
    }

    /// Gives the relationship another type, and its other side the reverse of it.
    func update(_ id: Int, typeID: Int?, typeErrors: [FieldError] = []) async throws -> Relationship {
        // A relationship that is not there is not found, whatever the body says.
        var stored = try await relationship(id)
        let type = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try RelationshipDraft.validatedType(typeID)
        }
        guard type != stored.type else { return stored }
        let now = dependencies.now()
        try await database.write(RelationshipsTable.self, ownedBy: ownerID, at: now) { [ownerID, stored] table in
            let reverse = try await Self.reverseID(of: stored, on: table.database)
            try await Self.requireUnrelated(
                stored.contactID, stored.ofContactID, as: type, except: [id] + (reverse.map { [$0] } ?? []),
                on: table.database)
            try await table.update(id, ownedBy: ownerID, set: [.type: type.id, .updatedAt: now])
            if let reverse {
                try await table.update(reverse, ownedBy: ownerID, set: [.type: type.reverse.id, .updatedAt: now])
            }
        }
        stored.type = type
        stored.updatedAt = now
        return stored
    }

    /// Deletes the relationship and its other side.
    func delete(_ id: Int) async throws {
        let stored = try await relationship(id)
        try await database.write(RelationshipsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] table in
            if let reverse = try await Self.reverseID(of: stored, on: table.database) {
                try await table.delete(reverse, ownedBy: ownerID)
            }
            try await table.delete(stored.id, ownedBy: ownerID)
        }
    }

    /// The other side's row: from the other contact back, of the reverse type.
    private static func reverseID(of relationship: Relationship, on database: any Database) async throws -> Int? {
        let rows = try await database.plainRows(
            """
            SELECT "id" FROM "relationships" WHERE "contact_id" = \(literal: relationship.ofContactID) \
            AND "of_contact_id" = \(literal: relationship.contactID) \
            AND "relationship_type_id" = \(literal: relationship.type.reverse.id) ORDER BY "id" LIMIT 1
            """, columns: ["id"])
        return try rows.first?.requiredInteger(0)
    }

    /// Refuses a relationship that one of its two sides already has, leaving out the rows `except` names
    /// (the ones being retyped).
    private static func requireUnrelated(
        _ contactID: Int, _ ofContactID: Int, as type: RelationshipType, except: [Int], on database: any Database
    ) async throws {
        let excluded = except.isEmpty ? "" : " AND \"id\" NOT IN (\(except.map(String.init).joined(separator: ", ")))"
        let rows = try await database.plainRows(
            """
            SELECT 1 AS "found" FROM "relationships" WHERE (("contact_id" = \(literal: contactID) \
            AND "of_contact_id" = \(literal: ofContactID) AND "relationship_type_id" = \(literal: type.id)) \
            OR ("contact_id" = \(literal: ofContactID) AND "of_contact_id" = \(literal: contactID) \
            AND "relationship_type_id" = \(literal: type.reverse.id)))\(unsafeRaw: excluded) LIMIT 1
            """, columns: ["found"])
        if !rows.isEmpty {
            throw ValidationFailure([
                FieldError(
                    field: "relationship_type_id", message: "The two contacts already have this relationship.",
                    reason: .conflict)
            ])
        }
    }
}
