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

    /// One page of the owner's notes, of one contact when `contactID` is given: newest first.
    func page(contactID: Int?, sort: ListSort<NoteSortField>, page: PageSelection) async throws -> ([Note], PageWindow)
    {
        try await database.ownedChildPage(
            table: NoteModel.schema, columns: NotesAndTasksRows.noteColumns, ownerID: ownerID, contactID: contactID,
            sort: sort, leadingOrder: Self.leadingOrder, page: page, read: NotesAndTasksRows.note(from:))
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
            SELECT \(NotesAndTasksRows.noteColumnList) FROM (SELECT \(NotesAndTasksRows.noteColumnList), \
            ROW_NUMBER() OVER (PARTITION BY "contact_id" ORDER BY "created_at" DESC, "id" DESC) AS "place" \
            FROM "notes" WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, idColumn: "contact_id"))) \
            AS "ranked" WHERE "place" <= \(literal: limit) ORDER BY "created_at" DESC, "id" DESC
            """, columns: NotesAndTasksRows.noteColumns)
        return Dictionary(grouping: try rows.map(NotesAndTasksRows.note(from:)), by: \.contactID)
    }

    func note(_ id: Int) async throws -> Note {
        try await NoteModel.requireOwned(id, by: ownerID, on: database).value()
    }

    /// Creates a note about one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found.
    func create(contactID: Int?, _ draft: NoteDraft, typeErrors: [FieldError] = []) async throws -> Note {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "note", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        let now = dependencies.now()
        let model = NoteModel(ownerID: ownerID, contactID: contactID, uuid: dependencies.newUUID(), now: now)
        model.apply(fields, now: now)
        try await model.save(on: database)
        return try model.value()
    }

    /// Changes a stored note: `change` gets it as a draft and returns the new one; `contactID` moves it
    /// to another of the owner's contacts.
    func update(_ id: Int, contactID: Int?, typeErrors: [FieldError] = [], _ change: (NoteDraft) -> NoteDraft)
        async throws -> Note
    {
        let model = try await NoteModel.requireOwned(id, by: ownerID, on: database)
        let draft = change(NoteDraft(model.fields))
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        if let contactID, contactID != model.$contact.id {
            _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
            model.$contact.id = contactID
        }
        model.apply(fields, now: dependencies.now())
        try await model.save(on: database)
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        try await NoteModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
    }
}
