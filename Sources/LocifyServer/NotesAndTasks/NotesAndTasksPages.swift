import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let note = FormName("note")
    static let task = FormName("task")
}

/// One note as a contact page lists it, with its edit form (open, with the problem, when an edit was
/// refused).
struct NoteLine: Encodable {
    let id: Int
    let body: String
    let written: String
    let isFavorited: Bool
    let editURL: String
    let favoriteURL: String
    let deleteURL: String
    let bodyField: FormField
    let isEditing: Bool

    init(_ note: Note, problem: FormProblem?) {
        id = note.id
        body = note.fields.body
        written = Timestamp.day(note.createdAt)
        isFavorited = note.fields.isFavorited
        editURL = NotePaths.note(note.id).path
        favoriteURL = NotePaths.favorite(note.id).path
        deleteURL = NotePaths.delete(note.id).path
        let error = problem?.message(for: .note, item: note.id)
        isEditing = error != nil
        bodyField = FormField(
            "body", label: "Note", control: .textarea,
            value: problem?.typed("body", in: .note, item: note.id) ?? note.fields.body, error: error,
            maxLength: NoteDraft.maximumBodyLength
        ).identified(as: "note-\(note.id)-body")
    }
}

/// The contact page's notes, newest first, and the form for a new one.
struct ContactNotesSection: Encodable {
    /// The newest this many notes show on the contact page.
    static let shownOnPage = 100

    let items: [NoteLine]
    let addURL: String
    let bodyField: FormField
    let favoriteField: FormField

    init(contactID: Int, notes: [Note], problem: FormProblem?) {
        items = notes.map { NoteLine($0, problem: problem) }
        addURL = NotePaths.contactNotes(contactID).path
        bodyField = FormField(
            "body", label: "New note", control: .textarea, value: problem?.typed("body", in: .note),
            error: problem?.message(for: .note), maxLength: NoteDraft.maximumBodyLength, rows: 3
        ).identified(as: "new-note")
        favoriteField = FormField(
            "is_favorited", label: "Favourite", control: .checkbox, value: "1",
            isChecked: problem?.typed("is_favorited", in: .note) != nil
        ).identified(as: "new-note-favorite")
    }
}

/// One task as the contact page and the Tasks page list it.
struct TaskLine: Encodable {
    let id: Int
    let title: String
    let description: String?
    let isCompleted: Bool
    let completed: String?
    let contactName: String?
    let contactURL: String?
    let editURL: String
    let doneURL: String
    let deleteURL: String
    let returnTo: FormField
    /// The page's form token: the line is drawn by a partial, which sees only the line.
    let csrfToken: String
    let titleField: FormField
    let descriptionField: FormField
    let isEditing: Bool

    /// `problem` is a refused edit, shown in this line's form when it is about this task.
    init(_ task: ToDo, contact: Contact?, returnTo: String, csrfToken: String, problem: FormProblem? = nil) {
        id = task.id
        title = task.fields.title
        description = task.fields.description
        isCompleted = task.fields.isCompleted
        completed = task.completedAt.map(Timestamp.day)
        contactName = contact?.completeName
        contactURL = contact.map { ContactPaths.contact($0.id).path }
        editURL = TaskPaths.task(task.id).path
        doneURL = TaskPaths.done(task.id).path
        deleteURL = TaskPaths.delete(task.id).path
        self.returnTo = .hidden("return_to", value: returnTo)
        self.csrfToken = csrfToken
        let error = problem?.message(for: .task, item: task.id)
        isEditing = error != nil
        titleField = FormField(
            "title", label: "Title", value: problem?.typed("title", in: .task, item: task.id) ?? task.fields.title,
            error: error, isRequired: true, maxLength: ToDoDraft.maximumTitleLength
        ).identified(as: "task-\(task.id)-title")
        descriptionField = FormField(
            "description", label: "Description", control: .textarea,
            value: problem?.typed("description", in: .task, item: task.id) ?? task.fields.description,
            maxLength: ToDoDraft.maximumDescriptionLength, rows: 2
        ).identified(as: "task-\(task.id)-description")
    }
}

/// The contact page's tasks, open ones first, and the form for a new one.
struct ContactTasksSection: Encodable {
    let items: [TaskLine]
    let addURL: String
    let tasksURL: String
    let titleField: FormField

    init(contact: Contact, tasks: [ToDo], problem: FormProblem?, csrfToken: String) {
        let back = ContactPaths.contact(contact.id).path + "#tasks"
        items = tasks.map {
            TaskLine($0, contact: nil, returnTo: back, csrfToken: csrfToken, problem: problem)
        }
        addURL = TaskPaths.contactTasks(contact.id).path
        tasksURL = TaskPaths.list.path
        titleField = FormField(
            "title", label: "New task", value: problem?.typed("title", in: .task),
            error: problem?.message(for: .task), maxLength: ToDoDraft.maximumTitleLength
        ).identified(as: "new-task")
    }
}

/// `GET /tasks`: the open tasks across contacts, oldest first, with a form for a new one.
enum TasksPage {
    /// What a refused form sent, drawn again in it.
    struct Typed {
        var title: String?
        var contactID: String?
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let tasks: [TaskLine]
        let addURL: String
        let titleField: FormField
        let contactField: FormField

        /// `errors` and `typed` are a refused new task's; `problem` a refused edit of one of `tasks`.
        init(
            tasks: [ToDo], contacts: [Int: Contact], allContacts: [Contact], session: PageSession,
            errors: FieldMessages = [:], typed: Typed = Typed(), problem: FormProblem? = nil
        ) {
            layout = LayoutContext(title: "Tasks", section: .reminders, session: session)
            self.tasks = tasks.map {
                TaskLine(
                    $0, contact: $0.contactID.flatMap { contacts[$0] }, returnTo: TaskPaths.list.path,
                    csrfToken: session.csrfToken, problem: problem)
            }
            addURL = TaskPaths.list.path
            titleField = FormField(
                "title", label: "Title", value: typed.title, errors: errors, isRequired: true,
                maxLength: ToDoDraft.maximumTitleLength
            ).identified(as: "task-title")
            let chosen = typed.contactID ?? ""
            contactField = FormField(
                "contact_id", label: "About", control: .select, errors: errors,
                options: [SelectOption(value: "", label: "No one", isSelected: chosen.isEmpty)]
                    + allContacts.map {
                        SelectOption(value: String($0.id), label: $0.completeName, isSelected: String($0.id) == chosen)
                    },
                filterPlaceholder: "Type to find a contact"
            ).identified(as: "task-contact")
        }
    }

    static func load(
        _ request: Request, errors: FieldMessages = [:], typed: Typed = Typed(), problem: FormProblem? = nil
    ) async throws -> Context {
        let tasks = try await request.tasks().openTasks()
        let contacts = try await request.contacts().contacts(tasks.compactMap(\.contactID))
        let everyone = try await request.contacts().allByName().filter { !$0.fields.isArchived }
        return Context(
            tasks: tasks, contacts: contacts, allContacts: everyone, session: request.pageSession, errors: errors,
            typed: typed, problem: problem)
    }
}
