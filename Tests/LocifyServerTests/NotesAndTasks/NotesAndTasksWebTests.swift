import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's tags, notes and tasks, the tag filter on the contact list, and the Tasks page.
final class NotesAndTasksWebTests: XCTestCase {
    func testTagsNotesAndTasksOnTheContactPage() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            try await browser.get("/contacts/new")
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            try await browser.post("/contacts", form: ["first_name": "Pierre"])

            // Tags: several at once, an existing one reused whatever its case; the list filters by tag.
            let tagged = try await browser.post(page + "/tags", form: ["tags": "Physics, Family"])
            XCTAssertEqual(tagged.status, .seeOther, "\(database): \(tagged.text)")
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(">Physics</a>"))
            XCTAssertTrue(detail.text.contains(">Family</a>"))
            let empty = try await browser.post(page + "/tags", form: ["tags": " , "])
            XCTAssertEqual(empty.status, .unprocessableEntity)
            XCTAssertTrue(empty.text.contains("Type a tag to add."))
            let api = try await app.apiAccount(email: "grace@example.com")
            let tags = try await app.send(.GET, "/api/tags", headers: api.bearer).decoded(
                PageResource<TagResource>.self)
            let physics = try XCTUnwrap(tags.data.first { $0.name == "Physics" })
            try await browser.post(page + "/tags", form: ["tags": "physics"])
            let stillTwo = try await app.send(.GET, "/api/tags", headers: api.bearer)
            XCTAssertEqual(try stillTwo.decoded(PageResource<TagResource>.self).meta.total, 2)
            let filtered = try await browser.get("/contacts?tag=\(physics.id)")
            XCTAssertTrue(filtered.text.contains("1 contact tagged “Physics”"))
            XCTAssertTrue(filtered.text.contains("Marie Curie"))
            XCTAssertFalse(filtered.text.contains(">Pierre<"))
            XCTAssertTrue(filtered.text.contains(#"<option value="\#(physics.id)" selected>Physics</option>"#))
            let unknownTag = try await browser.get("/contacts?tag=999999")
            XCTAssertEqual(unknownTag.status, .notFound)
            let removed = try await browser.post(page + "/tags/\(physics.id)/remove", form: [:])
            XCTAssertEqual(removed.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertFalse(detail.text.contains(">Physics</a>"))
            XCTAssertTrue(detail.text.contains(#"<option value="Physics">"#), "suggested again")

            // Notes: line breaks kept, newest first, favourite, edit, delete; an empty one is refused.
            let refused = try await browser.post(page + "/notes", form: ["body": "   "])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("Write the note."))
            try await browser.post(page + "/notes", form: ["body": "Discovered polonium.\nThen radium."])
            clock.advance(by: 60)
            try await browser.post(page + "/notes", form: ["body": "Two Nobel prizes", "is_favorited": "1"])
            detail = try await browser.get(page)
            let older = try XCTUnwrap(detail.text.range(of: "Discovered polonium.\nThen radium."))
            let newer = try XCTUnwrap(detail.text.range(of: "Two Nobel prizes"))
            XCTAssertLessThan(newer.lowerBound, older.lowerBound, "newest first")
            let notes = try await app.send(.GET, "/api/notes?sort=created_at", headers: api.bearer)
                .decoded(PageResource<NoteResource>.self).data
            XCTAssertEqual(notes.map(\.isFavorited), [true, false])
            let first = try XCTUnwrap(notes.last)
            try await browser.post("/notes/\(first.id)/favorite", form: [:])
            // A refused edit is drawn again in that note's own form, opened, with what was typed.
            let badNote = try await browser.post("/notes/\(first.id)", form: ["body": " "])
            XCTAssertEqual(badNote.status, .unprocessableEntity)
            XCTAssertTrue(
                badNote.text.contains(#"<p class="error" id="note-\#(first.id)-body-error">Write the note.</p>"#),
                badNote.text)
            XCTAssertFalse(badNote.text.contains(#"id="new-note-error""#), "not the new note's form")
            XCTAssertEqual(badNote.text.components(separatedBy: #"<details class="menu" open>"#).count, 2)
            try await browser.post("/notes/\(first.id)", form: ["body": "Discovered polonium and radium."])
            let edited = try await app.send(.GET, "/api/notes/\(first.id)", headers: api.bearer)
                .decoded(DataEnvelope<NoteResource>.self).data
            XCTAssertEqual(edited.body, "Discovered polonium and radium.")
            XCTAssertTrue(edited.isFavorited)
            try await browser.post("/notes/\(first.id)/delete", form: [:])
            let gone = try await app.send(.GET, "/api/notes/\(first.id)", headers: api.bearer)
            XCTAssertEqual(gone.status, .notFound)

            // Tasks: added here, ticked off and opened again, listed on the Tasks page while open.
            try await browser.post(page + "/tasks", form: ["title": "Return the lab keys"])
            let tasks = try await app.send(.GET, "/api/tasks", headers: api.bearer)
                .decoded(PageResource<TaskResource>.self).data
            let keys = try XCTUnwrap(tasks.first)
            var tasksPage = try await browser.get("/tasks")
            XCTAssertTrue(tasksPage.text.contains("Return the lab keys"))
            XCTAssertTrue(tasksPage.text.contains(">Marie Curie</a>"))
            let ticked = try await browser.post(
                "/tasks/\(keys.id)/done", form: ["return_to": page + "#tasks"])
            XCTAssertEqual(ticked.headers.first(name: .location), page + "#tasks")
            tasksPage = try await browser.get("/tasks")
            XCTAssertTrue(tasksPage.text.contains("“Return the lab keys” is done."))
            XCTAssertFalse(tasksPage.text.contains(#"id="task-\#(keys.id)""#), "done tasks leave the Tasks page")
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"<li id="task-\#(keys.id)" class="done">"#))
            let away = try await browser.post("/tasks/\(keys.id)/done", form: ["return_to": "https://evil.example/"])
            XCTAssertEqual(away.headers.first(name: .location), "/tasks", "only paths on this site")
            let badTitle = try await browser.post("/tasks/\(keys.id)", form: ["title": "", "return_to": page])
            XCTAssertEqual(badTitle.status, .unprocessableEntity)
            XCTAssertTrue(badTitle.text.contains(#"id="task-\#(keys.id)-title-error">"#), "beside the task edited")
            XCTAssertFalse(badTitle.text.contains(#"id="new-task-error""#))
            let badOnTasksPage = try await browser.post(
                "/tasks/\(keys.id)", form: ["title": "", "description": "Kept", "return_to": "/tasks"])
            XCTAssertEqual(badOnTasksPage.status, .unprocessableEntity)
            XCTAssertTrue(badOnTasksPage.text.contains("<h2>New task</h2>"), "the Tasks page, drawn again")
            XCTAssertTrue(badOnTasksPage.text.contains(#"id="task-\#(keys.id)-title-error">"#))
            XCTAssertTrue(badOnTasksPage.text.contains(">Kept</textarea>"), "what was typed stays")
            // A refused new task keeps the contact chosen for it.
            let contactID = page.split(separator: "/").last.map(String.init) ?? ""
            let untitled = try await browser.post("/tasks", form: ["title": " ", "contact_id": contactID])
            XCTAssertEqual(untitled.status, .unprocessableEntity)
            XCTAssertTrue(untitled.text.contains(#"<option value="\#(contactID)" selected>"#), untitled.text)
            XCTAssertTrue(untitled.text.contains(#"id="task-title-error""#))
            try await browser.post("/tasks", form: ["title": "Buy a notebook", "contact_id": ""])
            tasksPage = try await browser.get("/tasks")
            XCTAssertTrue(tasksPage.text.contains("Buy a notebook"))
            XCTAssertTrue(tasksPage.text.contains(#"id="task-\#(keys.id)""#), "opened again")
            try await browser.post("/tasks/\(keys.id)/delete", form: ["return_to": "/tasks"])
            let left = try await app.send(.GET, "/api/tasks", headers: api.bearer)
            XCTAssertEqual(try left.decoded(PageResource<TaskResource>.self).data.map(\.title), ["Buy a notebook"])
        }
    }

    func testAnotherAccountsNotesTasksAndTagsAreNotFoundAndUntouched() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let note = try await app.send(
                .POST, "/api/notes", headers: owner.bearer, json: #"{"contact_id": \#(ada.id), "body": "Private"}"#
            ).decoded(DataEnvelope<NoteResource>.self).data
            let task = try await app.send(
                .POST, "/api/tasks", headers: owner.bearer, json: #"{"contact_id": \#(ada.id), "title": "Private"}"#
            ).decoded(DataEnvelope<TaskResource>.self).data
            let tagged = try await app.send(
                .POST, "/api/contacts/\(ada.id)/setTags", headers: owner.bearer, json: #"{"tags": ["Secret"]}"#
            ).decoded(DataEnvelope<ContactResource>.self).data
            let tag = try XCTUnwrap(tagged.tags.first)
            let browser = WebClient(app: app)
            _ = try await browser.register(email: "eve@example.com")
            for (path, form) in [
                ("/contacts/\(ada.id)/tags", ["tags": "Mine"]), ("/contacts/\(ada.id)/tags/\(tag.id)/remove", [:]),
                ("/contacts/\(ada.id)/notes", ["body": "Hi"]), ("/notes/\(note.id)", ["body": "Mine"]),
                ("/notes/\(note.id)/favorite", [:]), ("/notes/\(note.id)/delete", [:]),
                ("/contacts/\(ada.id)/tasks", ["title": "Hi"]), ("/tasks/\(task.id)", ["title": "Mine"]),
                ("/tasks/\(task.id)/done", [:]), ("/tasks/\(task.id)/delete", [:]),
                ("/tasks", ["title": "About Ada", "contact_id": String(ada.id)]),
            ] as [(String, [String: String])] {
                let response = try await browser.post(path, form: form)
                XCTAssertEqual(response.status, .notFound, "\(database) \(path)")
            }
            let filter = try await browser.get("/contacts?tag=\(tag.id)")
            XCTAssertEqual(filter.status, .notFound)
            let kept = try await app.send(.GET, "/api/notes/\(note.id)", headers: owner.bearer)
                .decoded(DataEnvelope<NoteResource>.self).data
            XCTAssertEqual(kept.body, "Private")
            XCTAssertFalse(kept.isFavorited)
            let keptTask = try await app.send(.GET, "/api/tasks/\(task.id)", headers: owner.bearer)
                .decoded(DataEnvelope<TaskResource>.self).data
            XCTAssertFalse(keptTask.completed)
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: owner.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(contact.tags.map(\.name), ["Secret"])
            let everyTask = try await app.send(.GET, "/api/tasks", headers: owner.bearer)
            XCTAssertEqual(try everyTask.decoded(PageResource<TaskResource>.self).meta.total, 1)
        }
    }
}
