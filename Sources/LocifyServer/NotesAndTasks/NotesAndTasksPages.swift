import Foundation
import LocifyCore
import Vapor

/// One note as a contact page lists it.
struct NoteLine: Encodable {
    let id: Int
    let body: String
    let written: String
    let isFavorited: Bool
    let editURL: String
    let favoriteURL: String
    let deleteURL: String

    init(_ note: Note) {
        id = note.id
        body = note.fields.body
        written = Timestamp.day(note.createdAt)
        isFavorited = note.fields.isFavorited
        editURL = SiteURL.note(note.id).path
        favoriteURL = SiteURL.noteFavorite(note.id).path
        deleteURL = SiteURL.deleteNote(note.id).path
    }
}

/// The contact page's notes, newest first, and the form for a new one.
struct ContactNotesSection: Encodable {
    /// The newest this many notes show on the contact page.
    static let shownOnPage = 100

    let items: [NoteLine]
    let addURL: String
    let maximumLength: Int
    let error: String?
    let typed: String?

    init(contactID: Int, notes: [Note], problem: ContactSectionProblem?) {
        items = notes.map(NoteLine.init)
        addURL = SiteURL.contactNotes(contactID).path
        maximumLength = NoteDraft.maximumBodyLength
        error = problem?.section == .note ? problem?.message : nil
        typed = problem?.section == .note ? problem?.typed : nil
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
    let returnTo: String
    /// The page's form token: the line is drawn by a partial, which sees only the line.
    let csrfToken: String

    init(_ task: ToDo, contact: Contact?, returnTo: String, csrfToken: String) {
        id = task.id
        title = task.fields.title
        description = task.fields.description
        isCompleted = task.fields.isCompleted
        completed = task.completedAt.map(Timestamp.day)
        contactName = contact?.completeName
        contactURL = contact.map { SiteURL.contact($0.id).path }
        editURL = SiteURL.task(task.id).path
        doneURL = SiteURL.taskDone(task.id).path
        deleteURL = SiteURL.deleteTask(task.id).path
        self.returnTo = returnTo
        self.csrfToken = csrfToken
    }
}

/// The contact page's tasks, open ones first, and the form for a new one.
struct ContactTasksSection: Encodable {
    let items: [TaskLine]
    let addURL: String
    let tasksURL: String
    let error: String?
    let typed: String?

    init(contact: Contact, tasks: [ToDo], problem: ContactSectionProblem?, csrfToken: String) {
        let back = SiteURL.contact(contact.id).path + "#tasks"
        items = tasks.map { TaskLine($0, contact: nil, returnTo: back, csrfToken: csrfToken) }
        addURL = SiteURL.contactTasks(contact.id).path
        tasksURL = SiteURL.tasks.path
        error = problem?.section == .task ? problem?.message : nil
        typed = problem?.section == .task ? problem?.typed : nil
    }
}

/// `GET /tasks`: the open tasks across contacts, oldest first, with a form for a new one.
enum TasksPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let tasks: [TaskLine]
        let addURL: String
        let contactOptions: [SelectOption]
        let errors: FieldMessages
        let typedTitle: String?

        init(
            tasks: [ToDo], contacts: [Int: Contact], allContacts: [Contact], session: PageSession,
            errors: FieldMessages = [:], typedTitle: String? = nil
        ) {
            layout = LayoutContext(title: "Tasks", section: .reminders, session: session)
            self.tasks = tasks.map {
                TaskLine(
                    $0, contact: $0.contactID.flatMap { contacts[$0] }, returnTo: SiteURL.tasks.path,
                    csrfToken: session.csrfToken)
            }
            addURL = SiteURL.tasks.path
            contactOptions =
                [SelectOption(value: "", label: "No one", isSelected: true)]
                + allContacts.map { SelectOption(value: String($0.id), label: $0.completeName, isSelected: false) }
            self.errors = errors
            self.typedTitle = typedTitle
        }
    }

    static func load(_ request: Request, errors: FieldMessages = [:], typedTitle: String? = nil) async throws
        -> Context
    {
        let tasks = try await request.tasks().openTasks()
        let contacts = try await request.contacts().contacts(tasks.compactMap(\.contactID))
        let everyone = try await request.contacts().allByName().filter { !$0.fields.isArchived }
        return Context(
            tasks: tasks, contacts: contacts, allContacts: everyone, session: request.pageSession, errors: errors,
            typedTitle: typedTitle)
    }
}
