import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Pets of one owner, in the shape of `CallService`: owner-scoped queries, Core values in and out.
struct PetService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = PetsTable.petColumns

    /// One page of the owner's pets, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Pet], PageWindow
    ) {
        try await database.ownedChildPage(
            table: PetsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID, sort: sort,
            page: page, read: PetsTable.pet(from:))
    }

    func pet(_ id: Int) async throws -> Pet {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: PetsTable.self, selecting: Self.columns, read: PetsTable.pet(from:))
    }

    /// Records a pet with one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found, an archived one refused.
    func create(contactID: Int?, _ draft: PetDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Pet
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "pet", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: PetsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        var values = PetsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(PetsTable.self, ownedBy: ownerID, at: now) { [values] pets in
            try await pets.insert(values)
        }
        return Pet(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored pet: `change` gets it as a draft and returns the new one. `contactID` moves it to
    /// another of the owner's contacts (Monica's update does).
    func update(
        _ id: Int, movingTo contactID: Int? = nil, typeErrors: [FieldError] = [], _ change: (PetDraft) -> PetDraft
    )
        async throws -> Pet
    {
        let stored = try await pet(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(PetDraft(stored.fields)).validated()
        }
        let owner = try await database.contact(movingTo: contactID, from: stored.contactID, ownedBy: ownerID)
        let now = dependencies.now()
        var values = PetsTable.values(of: fields, now: now)
        values[.contact] = owner
        try await database.write(PetsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] pets in
            try await pets.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.contactID = owner
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(PetsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] pets in
            try await pets.delete(id, ownedBy: ownerID)
        }
    }
}
