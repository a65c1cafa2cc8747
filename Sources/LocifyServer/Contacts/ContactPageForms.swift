import Vapor

extension Request {
    /// One of the contact page's small forms (a note, a task, tags, a field, a picture), handled the one
    /// way: saved and redirected, or the contact page drawn again (422) with the problem beside `form`
    /// (editing `itemID`; nil for the form that adds one) and `typed` back in it.
    func handleContactForm(
        _ form: FormName, contact contactID: Int, item itemID: Int? = nil, typed: [String: String?] = [:],
        _ submit: () async throws -> FormOutcome
    ) async throws -> Response {
        try await handleForm(form, item: itemID, typed: typed, submit) { problem in
            try await view.render("contacts/show", ContactPage.load(self, id: contactID, problem: problem))
        }
    }
}
