import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/notes` and `/api/tasks`, and the contact routes beside them.
final class NotesAndTasksAPITests: XCTestCase {
    private func note(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/notes",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> NoteResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<NoteResource>.self, file: file, line: line).data
    }

    private func task(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/tasks",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> TaskResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(
            response.status, .ok, "Monica answers a new task with 200: \(response.text)", file: file, line: line)
        return try response.decoded(DataEnvelope<TaskResource>.self, file: file, line: line).data
    }

    private func put<Resource: Codable & Sendable & Equatable>(
        _ app: Application, _ account: TestAccount, _ path: String, _ json: String, as type: Resource.Type,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Resource {
        let response = try await app.send(.PUT, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .ok, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<Resource>.self, file: file, line: line).data
    }

    func testANotesShapeFavouriteStampAndNewestFirst() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let response = try await app.send(
                .POST, "/api/notes", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "body": "  Met at the engine demo.\nLikes tea.  ", "is_favorited": true}"#
            )
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data"]),
                [
                    "id", "uuid", "object", "body", "is_favorited", "favorited_at", "url", "account", "contact",
                    "created_at", "updated_at", "contact_id",
                ])
            let first = try response.decoded(DataEnvelope<NoteResource>.self).data
            XCTAssertEqual(first.object, "note")
            XCTAssertEqual(first.body, "Met at the engine demo.\nLikes tea.", "trimmed, the line break kept")
            XCTAssertTrue(first.isFavorited)
            XCTAssertEqual(first.favoritedAt, "2024-05-04T10:06:05Z")
            XCTAssertEqual(first.url, "http://127.0.0.1:8080/api/notes/\(first.id)")
            XCTAssertEqual(first.contact.completeName, "Ada Lovelace")
            XCTAssertEqual(first.contactID, ada.id)

            clock.advance(by: 60)
            let second = try await note(
                app, account, #"{"body": "Owes me a book"}"#, path: "/api/contacts/\(ada.id)/notes")
            XCTAssertFalse(second.isFavorited)
            XCTAssertNil(second.favoritedAt)
            let list = try await app.send(.GET, "/api/notes?sort=created_at", headers: account.bearer)
            XCTAssertEqual(
                try list.decoded(PageResource<NoteResource>.self).data.map(\.id), [second.id, first.id],
                "newest first, whatever sort says")

            // A second "true" keeps the first stamp; a body left out is kept; false clears the stamp.
            clock.advance(by: 60)
            let again = try await put(
                app, account, "/api/notes/\(first.id)", #"{"is_favorited": true}"#, as: NoteResource.self)
            XCTAssertEqual(again.favoritedAt, "2024-05-04T10:06:05Z")
            XCTAssertEqual(again.body, first.body)
            let unfavorited = try await put(
                app, account, "/api/notes/\(first.id)", #"{"body": "Met at the demo.", "is_favorited": false}"#,
                as: NoteResource.self)
            XCTAssertFalse(unfavorited.isFavorited)
            XCTAssertNil(unfavorited.favoritedAt)
            XCTAssertEqual(unfavorited.body, "Met at the demo.")
            XCTAssertEqual(unfavorited.updatedAt, "2024-05-04T10:08:05Z")

            // A note moves to another of the owner's contacts; each contact counts its notes.
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let moved = try await put(
                app, account, "/api/notes/\(second.id)", #"{"contact_id": \#(grace.id)}"#, as: NoteResource.self)
            XCTAssertEqual(moved.contactID, grace.id)
            XCTAssertEqual(moved.contact.firstName, "Grace")
            let ofGrace = try await app.send(.GET, "/api/notes?contact_id=\(grace.id)", headers: account.bearer)
            XCTAssertEqual(try ofGrace.decoded(PageResource<NoteResource>.self).data.map(\.id), [second.id])
            let ofAda = try await app.send(.GET, "/api/contacts/\(ada.id)/notes", headers: account.bearer)
            XCTAssertEqual(try ofAda.decoded(PageResource<NoteResource>.self).data.map(\.id), [first.id])
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try contact.decoded(DataEnvelope<ContactResource>.self).data.statistics.numberOfNotes, 1)
            let contacts = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(
                try contacts.decoded(PageResource<ContactResource>.self).data.map(\.statistics.numberOfNotes), [1, 1])

            let deleted = try await app.send(.DELETE, "/api/notes/\(first.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            XCTAssertEqual(try deleted.decoded(DeletedResource.self), DeletedResource(id: first.id))
            let gone = try await app.send(.GET, "/api/notes/\(first.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
        }
    }

    func testBadNotesAndTasksAreRefusedWholeAndNothingSaved() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let note = try await app.send(
                .POST, "/api/notes", headers: account.bearer, json: #"{"body": " ", "is_favorited": "maybe"}"#)
            XCTAssertEqual(note.status, .unprocessableEntity, "\(database)")
            XCTAssertEqual(
                try note.decoded(ErrorEnvelope.self).error.message,
                .list(["Favourite must be true or false.", "Choose the contact this note is about.", "Write the note."])
            )
            let long = try await app.send(
                .POST, "/api/notes", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "body": "\#(String(repeating: "x", count: 100_001))"}"#)
            XCTAssertEqual(
                try long.decoded(ErrorEnvelope.self).error.message, .list(["Note must be at most 100000 characters."]))
            let task = try await app.send(
                .POST, "/api/tasks", headers: account.bearer, json: #"{"title": "", "contact_id": "ada"}"#)
            XCTAssertEqual(task.status, .unprocessableEntity)
            XCTAssertEqual(
                try task.decoded(ErrorEnvelope.self).error.message,
                .list(["Contact must be a whole number.", "Title is required."]))
            let badSort = try await app.send(.GET, "/api/tasks?sort=title", headers: account.bearer)
            XCTAssertEqual(badSort.status, .badRequest)
            XCTAssertEqual(try badSort.decoded(ErrorEnvelope.self).error.errorCode, 39)
            for path in ["/api/notes", "/api/tasks"] {
                let list = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(try list.decoded(PageResource<TaskResource>.self).meta.total, 0, path)
            }
            let saved = try await self.task(app, account, #"{"title": "Call back"}"#)
            let emptied = try await app.send(
                .PUT, "/api/tasks/\(saved.id)", headers: account.bearer, json: #"{"title": "  "}"#)
            XCTAssertEqual(emptied.status, .unprocessableEntity)
            let kept = try await app.send(.GET, "/api/tasks/\(saved.id)", headers: account.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<TaskResource>.self).data.title, "Call back")
        }
    }

    func testATasksShapeCompletionStampAndSorts() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let response = try await app.send(
                .POST, "/api/tasks", headers: account.bearer,
                json: #"{"title": "Buy stamps", "description": "First class"}"#)
            XCTAssertEqual(response.status, .ok, "\(database): \(response.text)")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data"]),
                [
                    "id", "uuid", "object", "title", "description", "completed", "completed_at", "account", "contact",
                    "created_at", "updated_at", "contact_id",
                ])
            XCTAssertTrue(response.text.contains(#""contact":null"#), response.text)
            let loose = try response.decoded(DataEnvelope<TaskResource>.self).data
            XCTAssertEqual(loose.object, "task")
            XCTAssertFalse(loose.completed)
            XCTAssertNil(loose.completedAt)
            XCTAssertNil(loose.contact)
            XCTAssertFalse(loose.uuid.isEmpty)

            clock.advance(by: 60)
            let done = try await task(
                app, account, #"{"title": "Send the letter", "completed": true, "contact_id": \#(ada.id)}"#)
            XCTAssertTrue(done.completed, "completed is honoured on create (Monica ignores it)")
            XCTAssertEqual(done.completedAt, "2024-05-04T10:07:05Z")
            XCTAssertEqual(done.contact?.firstName, "Ada")
            clock.advance(by: 60)
            let viaContact = try await task(
                app, account, #"{"title": "Ask about Babbage"}"#, path: "/api/contacts/\(ada.id)/tasks")
            XCTAssertEqual(viaContact.contactID, ada.id)

            // A tick sends only `completed`: the description stays, the stamp is made once.
            clock.advance(by: 60)
            let ticked = try await put(
                app, account, "/api/tasks/\(loose.id)", #"{"completed": true}"#, as: TaskResource.self)
            XCTAssertTrue(ticked.completed)
            XCTAssertEqual(ticked.completedAt, "2024-05-04T10:09:05Z")
            XCTAssertEqual(ticked.description, "First class")
            clock.advance(by: 60)
            let retitled = try await put(
                app, account, "/api/tasks/\(loose.id)", #"{"title": "Buy stamps and envelopes", "completed": true}"#,
                as: TaskResource.self)
            XCTAssertEqual(retitled.completedAt, "2024-05-04T10:09:05Z", "stamped on false → true only")
            let sorted = try await app.send(.GET, "/api/tasks?sort=-completed_at", headers: account.bearer)
            XCTAssertEqual(
                try sorted.decoded(PageResource<TaskResource>.self).data.map(\.id), [loose.id, done.id, viaContact.id],
                "newest done first, open ones last")
            let ascending = try await app.send(.GET, "/api/tasks?sort=completed_at", headers: account.bearer)
            XCTAssertEqual(
                try ascending.decoded(PageResource<TaskResource>.self).data.map(\.id),
                [done.id, loose.id, viaContact.id], "open ones last either way")
            let reopened = try await put(
                app, account, "/api/tasks/\(loose.id)", #"{"completed": false, "description": null}"#,
                as: TaskResource.self)
            XCTAssertFalse(reopened.completed)
            XCTAssertNil(reopened.completedAt)
            XCTAssertNil(reopened.description, "a key sent as null clears it")

            // Tasks never move: naming another contact is not found, and nothing changes.
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let moved = try await app.send(
                .PUT, "/api/tasks/\(done.id)", headers: account.bearer,
                json: #"{"title": "Moved", "contact_id": \#(grace.id)}"#)
            XCTAssertEqual(moved.status, .notFound)
            let sameContact = try await put(
                app, account, "/api/tasks/\(done.id)", #"{"title": "Sent", "contact_id": \#(ada.id)}"#,
                as: TaskResource.self)
            XCTAssertEqual(sameContact.title, "Sent")

            let ofAda = try await app.send(.GET, "/api/contacts/\(ada.id)/tasks", headers: account.bearer)
            XCTAssertEqual(
                try ofAda.decoded(PageResource<TaskResource>.self).data.map(\.id), [done.id, viaContact.id])
            let filtered = try await app.send(.GET, "/api/tasks?contact_id=\(ada.id)&limit=1", headers: account.bearer)
            let page = try filtered.decoded(PageResource<TaskResource>.self)
            XCTAssertEqual(page.meta.total, 2)
            XCTAssertEqual(page.links.next, "http://127.0.0.1:8080/api/tasks?contact_id=\(ada.id)&limit=1&page=2")
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(
                try contact.decoded(DataEnvelope<ContactResource>.self).data.statistics.numberOfTasks, 2,
                "done tasks count too")

            // Deleting the contact takes its tasks and notes with it; a task about no one stays.
            _ = try await note(app, account, #"{"contact_id": \#(ada.id), "body": "x"}"#)
            let deleted = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let left = try await app.send(.GET, "/api/tasks", headers: account.bearer)
            XCTAssertEqual(try left.decoded(PageResource<TaskResource>.self).data.map(\.id), [loose.id])
            let notes = try await app.send(.GET, "/api/notes", headers: account.bearer)
            XCTAssertEqual(try notes.decoded(PageResource<NoteResource>.self).meta.total, 0)
        }
    }

    func testAnotherAccountsNotesAndTasksAreNotFoundAndUntouched() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let note = try await note(app, owner, #"{"contact_id": \#(ada.id), "body": "Private"}"#)
            let task = try await task(app, owner, #"{"contact_id": \#(ada.id), "title": "Private"}"#)
            let other = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let eves = try await app.makeContact(for: other, ContactDraft(firstName: "Mallory"))
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/notes/\(note.id)", nil),
                (.PUT, "/api/notes/\(note.id)", #"{"body": "Mine now"}"#),
                (.DELETE, "/api/notes/\(note.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/notes", nil),
                (.POST, "/api/contacts/\(ada.id)/notes", #"{"body": "Hello"}"#),
                (.POST, "/api/notes", #"{"contact_id": \#(ada.id), "body": "Hello"}"#),
                (.PUT, "/api/notes/\(note.id)", #"{"contact_id": \#(eves.id)}"#),
                (.GET, "/api/tasks/\(task.id)", nil),
                (.PUT, "/api/tasks/\(task.id)", #"{"completed": true}"#),
                (.DELETE, "/api/tasks/\(task.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/tasks", nil),
                (.POST, "/api/contacts/\(ada.id)/tasks", #"{"title": "Hello"}"#),
                (.POST, "/api/tasks", #"{"contact_id": \#(ada.id), "title": "Hello"}"#),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path)")
                XCTAssertEqual(try response.decoded(ErrorEnvelope.self).error.errorCode, 31)
            }
            // The owner cannot move a note to another account's contact either.
            let moved = try await app.send(
                .PUT, "/api/notes/\(note.id)", headers: owner.bearer, json: #"{"contact_id": \#(eves.id)}"#)
            XCTAssertEqual(moved.status, .notFound)
            for path in ["/api/notes", "/api/tasks"] {
                let theirs = try await app.send(.GET, path, headers: other.bearer)
                XCTAssertEqual(try theirs.decoded(PageResource<TaskResource>.self).meta.total, 0, path)
            }
            let kept = try await app.send(.GET, "/api/notes/\(note.id)", headers: owner.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<NoteResource>.self).data.body, "Private")
            XCTAssertEqual(try kept.decoded(DataEnvelope<NoteResource>.self).data.contactID, ada.id)
            let keptTask = try await app.send(.GET, "/api/tasks/\(task.id)", headers: owner.bearer)
            XCTAssertFalse(try keptTask.decoded(DataEnvelope<TaskResource>.self).data.completed)
        }
    }
}
