import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Calls of one owner, in the shape of `NoteService`: owner-scoped queries, Core values in and out.
struct CallService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(CallSortField.calledAt, descending: true)
    /// Monica lists calls newest first whatever `sort` says; `sort` only orders calls of the same moment.
    static let leadingOrder: SQLQueryString = #""called_at" DESC"#
    private static let columns = CallsTable.callColumns

    /// One page of the owner's calls, of one contact when `contactID` is given: newest first.
    func page(contactID: Int?, sort: ListSort<CallSortField>, page: PageSelection) async throws -> ([Call], PageWindow)
    {
        try await database.ownedChildPage(
            table: CallsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, leadingOrder: Self.leadingOrder, page: page, read: CallsTable.call(from:))
    }

    /// How many calls the owner made or took each year (UTC), newest year first: Monica's
    /// `meta.statistics`, for the whole account even on one contact's list.
    func yearlyCounts() async throws -> [(year: Int, count: Int)] {
        let rows = try await database.plainRows(
            #"SELECT "called_at" FROM "calls" WHERE "user_id" = \#(literal: ownerID)"#, columns: ["called_at"])
        var counts: [Int: Int] = [:]
        for row in rows {
            counts[CalendarDate(try row.requiredDate(0), in: .gmt).year, default: 0] += 1
        }
        return counts.sorted { $0.key > $1.key }.map { (year: $0.key, count: $0.value) }
    }

    func call(_ id: Int) async throws -> Call {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: CallsTable.self, selecting: Self.columns, read: CallsTable.call(from:))
    }

    /// Records a call with one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found.
    func create(contactID: Int?, _ draft: CallDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Call
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "call", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: CallsTable.self, ownedBy: ownerID)
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        let now = dependencies.now()
        var values = CallsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(CallsTable.self, ownedBy: ownerID, at: now) { [values] calls in
            try await calls.insert(values)
        }
        return Call(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored call: `change` gets it as a draft and returns the new one. A call stays with its
    /// contact.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (CallDraft) -> CallDraft) async throws -> Call {
        let stored = try await call(id)
        let draft = change(CallDraft(stored.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        let values = CallsTable.values(of: fields, now: now)
        try await database.write(CallsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] calls in
            try await calls.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(CallsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] calls in
            try await calls.delete(id, ownedBy: ownerID)
        }
    }
}
