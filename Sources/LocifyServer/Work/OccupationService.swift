import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Occupations of one owner's contacts, in the shape of `PetService`.
struct OccupationService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = OccupationsTable.occupationColumns

    /// One page of the owner's occupations, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Occupation], PageWindow
    ) {
        try await database.ownedChildPage(
            table: OccupationsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: OccupationsTable.occupation(from:))
    }

    func occupation(_ id: Int) async throws -> Occupation {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: OccupationsTable.self, selecting: Self.columns,
            read: OccupationsTable.occupation(from:))
    }

    /// Records a job of one of the owner's contacts at one of the owner's companies; a missing contact
    /// is reported with the other problems, another account's is not found, an archived one refused.
    func create(contactID: Int?, _ draft: OccupationDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil)
        async throws -> Occupation
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "occupation", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: OccupationsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        try await requireCompany(fields.companyID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        var values = OccupationsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(OccupationsTable.self, ownedBy: ownerID, at: now) { [values] occupations in
            try await occupations.insert(values)
        }
        return Occupation(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored occupation: `change` gets it as a draft and returns the new one. `contactID`
    /// moves it to another of the owner's contacts.
    func update(
        _ id: Int, movingTo contactID: Int? = nil, typeErrors: [FieldError] = [],
        _ change: (OccupationDraft) -> OccupationDraft
    ) async throws -> Occupation {
        let stored = try await occupation(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(OccupationDraft(stored.fields)).validated()
        }
        let owner = try await database.contact(movingTo: contactID, from: stored.contactID, ownedBy: ownerID)
        if fields.companyID != stored.fields.companyID { try await requireCompany(fields.companyID) }
        let now = dependencies.now()
        var values = OccupationsTable.values(of: fields, now: now)
        values[.contact] = owner
        try await database.write(OccupationsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] occupations in
            try await occupations.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.contactID = owner
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(OccupationsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] occupations in
            try await occupations.delete(id, ownedBy: ownerID)
        }
    }

    /// Another account's company is as absent as a missing one; for an occupation's input that is a
    /// problem with the input, naming the field.
    private func requireCompany(_ id: Int) async throws {
        let rows = try await database.plainRows(
            #"SELECT "id" FROM "companies" WHERE \#(CompaniesTable.ownedRow(id, ownedBy: ownerID))"#, columns: ["id"])
        guard !rows.isEmpty else {
            throw ValidationFailure(
                field: "company_id", "company_id must be one of your companies.", reason: .unknownReference)
        }
    }
}
