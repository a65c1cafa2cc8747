extension PathParameter {
    static let noteID = PathParameter("noteID")
    static let taskID = PathParameter("taskID")
}

/// A contact's notes: the contact page's forms and the API.
enum NotePaths {
    static let contactNotes = ContactPaths.contact.appending("notes")
    static let note = SitePath("notes").appending(.noteID)
    static let favorite = note.appending("favorite")
    static let delete = note.appending("delete")
    static let api = SitePaths.api.appending("notes")
    static let apiNote = api.appending(.noteID)
    static let apiContactNotes = ContactPaths.apiContact.appending("notes")
}

/// Tasks: the Tasks page, the contact page's forms and the API.
enum TaskPaths {
    static let list = SitePaths.tasks
    static let contactTasks = ContactPaths.contact.appending("tasks")
    static let task = list.appending(.taskID)
    static let done = task.appending("done")
    static let delete = task.appending("delete")
    static let api = SitePaths.api.appending("tasks")
    static let apiTask = api.appending(.taskID)
    static let apiContactTasks = ContactPaths.apiContact.appending("tasks")
}
