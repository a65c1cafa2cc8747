import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Debts of one owner, in the shape of `CallService`: owner-scoped queries, Core values in and out.
struct DebtService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = DebtsTable.debtColumns

    /// One page of the owner's debts, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Debt], PageWindow
    ) {
        try await database.ownedChildPage(
            table: DebtsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID, sort: sort,
            page: page, read: DebtsTable.debt(from:))
    }

    func debt(_ id: Int) async throws -> Debt {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: DebtsTable.self, selecting: Self.columns, read: DebtsTable.debt(from:))
    }

    /// Records a debt with one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found, an archived one refused.
    func create(contactID: Int?, _ draft: DebtDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Debt
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "debt", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: DebtsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        var values = DebtsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(DebtsTable.self, ownedBy: ownerID, at: now) { [values] debts in
            try await debts.insert(values)
        }
        return Debt(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored debt: `change` gets it as a draft and returns the new one. A debt stays with its
    /// contact.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (DebtDraft) -> DebtDraft) async throws -> Debt {
        let stored = try await debt(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(DebtDraft(stored.fields)).validated()
        }
        let now = dependencies.now()
        let values = DebtsTable.values(of: fields, now: now)
        try await database.write(DebtsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] debts in
            try await debts.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(DebtsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] debts in
            try await debts.delete(id, ownedBy: ownerID)
        }
    }
}
