import LocifyCore
import Vapor

/// The journal page: write, edit and delete entries. Every form works without scripts; a refused one
/// draws the page again with the problem beside it.
struct JournalWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(JournalPaths.page, use: page)
        routes.post(JournalPaths.page, use: add)
        routes.post(JournalPaths.entry, use: edit)
        routes.post(JournalPaths.delete, use: delete)
    }

    struct EntryForm: Content {
        var title: String?
        var post: String?
    }

    func page(request: Request) async throws -> View {
        try await request.view.render("journal/index", try await JournalPage.load(request))
    }

    func add(request: Request) async throws -> Response {
        let form = try request.content.decode(EntryForm.self)
        return try await request.handleForm(.journalEntry, typed: ["title": form.title, "post": form.post]) {
            let entry = try await request.journal().create(JournalEntryDraft(title: form.title, post: form.post))
            return .redirect(
                to: JournalPaths.page.path + "#entry-\(entry.id)", flash: "“\(entry.fields.title)” was saved.")
        } redraw: { problem in
            try await request.view.render("journal/index", try await JournalPage.load(request, problem: problem))
        }
    }

    func edit(request: Request) async throws -> Response {
        let entry = try await request.journal().entry(try request.pathID(.entryID))
        let form = try request.content.decode(EntryForm.self)
        return try await request.handleForm(
            .journalEntry, item: entry.id, typed: ["title": form.title, "post": form.post]
        ) {
            _ = try await request.journal().update(entry.id) { _ in
                JournalEntryDraft(title: form.title, post: form.post)
            }
            return .redirect(to: JournalPaths.page.path + "#entry-\(entry.id)", flash: "The entry was saved.")
        } redraw: { problem in
            try await request.view.render("journal/index", try await JournalPage.load(request, problem: problem))
        }
    }

    func delete(request: Request) async throws -> Response {
        let entry = try await request.journal().entry(try request.pathID(.entryID))
        try await request.journal().delete(entry.id)
        return request.redirect(to: JournalPaths.page.path, flash: "“\(entry.fields.title)” was deleted.")
    }
}
