import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Notes of one owner, in the shape of `ReminderService`: owner-scoped queries, Core values in and out.
struct NoteService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(NoteSortField.createdAt, descending: true)
    /// Monica lists notes newest first whatever `sort` says; `sort` only orders notes of the same moment.
    static let leadingOrder: SQLQueryString = #""created_at" DESC"#
    private static let columns = NotesTable.noteColumns

    /// One page of the owner's notes, of one contact when `contactID` is given: newest first.
    func page(contactID: Int?, sort: ListSort<NoteSortField>, page: PageSelection) async throws -> ([Note], PageWindow)
    {
        try await database.ownedChildPage(
            table: NotesTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, leadingOrder: Self.leadingOrder, page: page, read: NotesTable.note(from:))
    }

    /// A contact's newest notes, for its page.
    func newest(ofContact contactID: Int, limit: Int) async throws -> [Note] {
        try await newest(ofContacts: [contactID], limit: limit)[contactID] ?? []
    }

    /// The newest notes of each of `contactIDs`, newest first, in one query: for `with=contactfields`.
    func newest(ofContacts contactIDs: [Int], limit: Int) async throws -> [Int: [Note]] {
        guard !contactIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM (SELECT \(Self.columns.list), \
            ROW_NUMBER() OVER (PARTITION BY "contact_id" ORDER BY "created_at" DESC, "id" DESC) AS "place" \
            FROM "notes" WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, idColumn: "contact_id"))) \
            AS "ranked" WHERE "place" <= \(literal: limit) ORDER BY "created_at" DESC, "id" DESC
            """, columns: Self.columns.names)
        return Dictionary(grouping: try rows.map(NotesTable.note(from:)), by: \.contactID)
    }

    func note(_ id: Int) async throws -> Note {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: NotesTable.self, selecting: Self.columns, read: NotesTable.note(from:))
    }

    /// Creates a note about one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found.
    func create(contactID: Int?, _ draft: NoteDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Note
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "note", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: NotesTable.self, ownedBy: ownerID)
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        let now = dependencies.now()
        var values = NotesTable.values(of: fields, favoritedAt: nil, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(NotesTable.self, ownedBy: ownerID, at: now) { [values] notes in
            try await notes.insert(values)
        }
        return Note(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields,
            favoritedAt: Timestamp.since(nil, holding: fields.isFavorited, now: now), createdAt: now, updatedAt: now)
    }

    /// Changes a stored note: `change` gets it as a draft and returns the new one; `contactID` moves it
    /// to another of the owner's contacts.
    func update(_ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (NoteDraft) -> NoteDraft)
        async throws -> Note
    {
        let stored = try await note(id)
        let draft = change(NoteDraft(stored.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        let now = dependencies.now()
        var values = NotesTable.values(of: fields, favoritedAt: stored.favoritedAt, now: now)
        var updated = stored
        updated.contactID = try await database.contact(movingTo: contactID, from: stored.contactID, ownedBy: ownerID)
        values[.contact] = updated.contactID
        try await database.write(NotesTable.self, ownedBy: ownerID, at: now) { [ownerID, values] notes in
            try await notes.update(id, ownedBy: ownerID, set: values)
        }
        updated.fields = fields
        updated.favoritedAt = Timestamp.since(stored.favoritedAt, holding: fields.isFavorited, now: now)
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(NotesTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] notes in
            try await notes.delete(id, ownedBy: ownerID)
        }
    }
}
