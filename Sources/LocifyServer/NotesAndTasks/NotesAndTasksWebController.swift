import LocifyCore
import Vapor

/// The contact page's notes and tasks, and the Tasks page. Every form works without scripts and
/// goes back where it came from; a refused one draws its page again with the problem beside it.
struct NotesAndTasksWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(NotePaths.contactNotes, use: addNote)
        routes.post(TaskPaths.contactTasks, use: addTaskForContact)
        routes.post(NotePaths.note, use: editNote)
        routes.post(NotePaths.favorite, use: toggleFavorite)
        routes.post(NotePaths.delete, use: deleteNote)
        routes.get(TaskPaths.list, use: tasksPage)
        routes.post(TaskPaths.list, use: addTask)
        routes.post(TaskPaths.task, use: editTask)
        routes.post(TaskPaths.done, use: toggleDone)
        routes.post(TaskPaths.delete, use: deleteTask)
    }

    struct NoteForm: Content {
        var body: String?
        var isFavorited: String?

        enum CodingKeys: String, CodingKey {
            case body
            case isFavorited = "is_favorited"
        }
    }

    struct TaskForm: Content {
        var title: String?
        var description: String?
        var contactID: String?
        var returnTo: String?

        enum CodingKeys: String, CodingKey {
            case title, description
            case contactID = "contact_id"
            case returnTo = "return_to"
        }
    }

    struct ReturnForm: Content {
        var returnTo: String?

        enum CodingKeys: String, CodingKey {
            case returnTo = "return_to"
        }
    }

    func addNote(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(NoteForm.self)
        return try await request.handleContactForm(
            .note, contact: contactID, typed: ["body": form.body, "is_favorited": form.isFavorited]
        ) {
            _ = try await request.notes().create(
                contactID: contactID, NoteDraft(body: form.body, isFavorited: form.isFavorited != nil))
            return .redirect(to: ContactPaths.contact(contactID).path + "#notes", flash: "The note was saved.")
        }
    }

    func editNote(request: Request) async throws -> Response {
        let note = try await request.notes().note(try request.pathID(.noteID))
        let form = try request.content.decode(NoteForm.self)
        return try await request.handleContactForm(
            .note, contact: note.contactID, item: note.id, typed: ["body": form.body]
        ) {
            _ = try await request.notes().update(note.id, contactID: nil) { draft in
                var changed = draft
                changed.body = form.body
                return changed
            }
            return .redirect(to: ContactPaths.contact(note.contactID).path + "#notes", flash: "The note was saved.")
        }
    }

    func toggleFavorite(request: Request) async throws -> Response {
        let note = try await request.notes().note(try request.pathID(.noteID))
        let favorite = !note.fields.isFavorited
        _ = try await request.notes().update(note.id, contactID: nil) { draft in
            var changed = draft
            changed.isFavorited = favorite
            return changed
        }
        return request.redirect(
            to: ContactPaths.contact(note.contactID).path + "#notes",
            flash: favorite ? "The note is a favourite." : "The note is no longer a favourite.")
    }

    func deleteNote(request: Request) async throws -> Response {
        let note = try await request.notes().note(try request.pathID(.noteID))
        try await request.notes().delete(note.id)
        return request.redirect(
            to: ContactPaths.contact(note.contactID).path + "#notes", flash: "The note was deleted.")
    }

    func addTaskForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let form = try request.content.decode(TaskForm.self)
        return try await request.handleContactForm(.task, contact: contactID, typed: ["title": form.title]) {
            let task = try await request.tasks().create(
                contactID: contactID, ToDoDraft(title: form.title, description: form.description))
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#tasks", flash: "The task “\(task.fields.title)” was added."
            )
        }
    }

    func tasksPage(request: Request) async throws -> View {
        try await request.view.render("tasks/index", try await TasksPage.load(request))
    }

    /// A task from the Tasks page, about the chosen contact or no one.
    func addTask(request: Request) async throws -> Response {
        let form = try request.content.decode(TaskForm.self)
        return try await request.handleForm {
            var problems: [FieldError] = []
            let contactID = LooseValue.integer(
                form.contactID, field: "contact_id", label: "Contact", problems: &problems)
            let task = try await request.tasks().create(
                contactID: contactID, ToDoDraft(title: form.title, description: form.description), typeErrors: problems)
            return .redirect(to: TaskPaths.list.path, flash: "The task “\(task.fields.title)” was added.")
        } redraw: { errors in
            try await request.view.render(
                "tasks/index",
                try await TasksPage.load(
                    request, errors: errors, typed: .init(title: form.title, contactID: form.contactID)))
        }
    }

    func editTask(request: Request) async throws -> Response {
        let task = try await request.tasks().task(try request.pathID(.taskID))
        let form = try request.content.decode(TaskForm.self)
        let back = SitePath.localPath(form.returnTo) ?? TaskPaths.list.path
        let typed = ["title": form.title, "description": form.description]
        func save() async throws -> FormOutcome {
            _ = try await request.tasks().update(task.id, contactID: nil) { draft in
                var changed = draft
                changed.title = form.title
                changed.description = form.description
                return changed
            }
            return .redirect(to: back, flash: "The task was saved.")
        }
        // Refused, the form is drawn again on the page it was sent from.
        if let contactID = task.contactID, back.hasPrefix(ContactPaths.contact(contactID).path) {
            return try await request.handleContactForm(
                .task, contact: contactID, item: task.id, typed: typed, save)
        }
        return try await request.handleForm(.task, item: task.id, typed: typed, save) { problem in
            try await request.view.render("tasks/index", try await TasksPage.load(request, problem: problem))
        }
    }

    /// Ticks a task off, or opens it again.
    func toggleDone(request: Request) async throws -> Response {
        let task = try await request.tasks().task(try request.pathID(.taskID))
        let done = !task.fields.isCompleted
        _ = try await request.tasks().update(task.id, contactID: nil) { draft in
            var changed = draft
            changed.isCompleted = done
            return changed
        }
        let back = SitePath.localPath(try request.content.decode(ReturnForm.self).returnTo) ?? TaskPaths.list.path
        return request.redirect(
            to: back, flash: done ? "“\(task.fields.title)” is done." : "“\(task.fields.title)” is open again.")
    }

    func deleteTask(request: Request) async throws -> Response {
        let task = try await request.tasks().task(try request.pathID(.taskID))
        try await request.tasks().delete(task.id)
        let back = SitePath.localPath(try request.content.decode(ReturnForm.self).returnTo) ?? TaskPaths.list.path
        return request.redirect(to: back, flash: "The task “\(task.fields.title)” was deleted.")
    }
}
