import LocifyCore
import Vapor

/// The contact pages of the web app.
struct ContactsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ContactPaths.list, use: index)
        routes.post(ContactPaths.list, use: create)
        routes.get(ContactPaths.new, use: new)
        routes.get(ContactPaths.contact, use: show)
        routes.get(ContactPaths.edit, use: edit)
        routes.post(ContactPaths.edit, use: update)
        routes.get(ContactPaths.delete, use: confirmDelete)
        routes.post(ContactPaths.delete, use: delete)
        routes.post(ContactPaths.me, use: setMe)
    }

    struct MeForm: Content {
        var isMe: String?

        enum CodingKeys: String, CodingKey {
            case isMe = "is_me"
        }
    }

    /// "This is me" (`is_me=1`) makes the contact the owner's own; `is_me=0` takes it back.
    func setMe(request: Request) async throws -> Response {
        let id = try request.pathID(.contactID)
        let form = try request.content.decode(MeForm.self)
        let isMe = form.isMe.flatMap(LooseValue.boolean) ?? true
        let contacts = try request.contacts()
        let contact = try await contacts.contact(id)
        if isMe {
            try await contacts.setMeContact(id)
        } else if contact.isMe {
            try await contacts.setMeContact(nil)
        }
        return request.redirect(
            to: ContactPaths.contact(id).path, flash: isMe ? "This contact is you." : "This contact is no longer you.")
    }

    func index(request: Request) async throws -> View {
        try await request.view.render("contacts/index", ContactListPage.load(request))
    }

    func show(request: Request) async throws -> View {
        try await request.view.render(
            "contacts/show", ContactPage.load(request, id: try request.pathID(.contactID)))
    }

    func new(request: Request) async throws -> View {
        try await request.view.render(
            "contacts/form",
            ContactFormPage.Context(
                form: ContactForm(), genders: try await request.genders().all(), session: request.pageSession))
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(ContactForm.self)
        return try await request.handleForm {
            let (draft, typeErrors) = form.draft()
            let contact = try await request.contacts().create(
                draft, typeErrors: typeErrors, birthdayReminder: form.birthdateAddReminder != nil)
            return .redirect(to: ContactPaths.contact(contact.id).path, flash: "\(contact.completeName) was added.")
        } redraw: { errors in
            try await request.view.render(
                "contacts/form",
                ContactFormPage.Context(
                    form: form, genders: try await request.genders().all(), errors: errors, session: request.pageSession
                ))
        }
    }

    func edit(request: Request) async throws -> View {
        let id = try request.pathID(.contactID)
        let contact = try await request.contacts().contact(id)
        let reminds = try await request.reminders().birthdayReminder(of: id) != nil
        return try await request.view.render(
            "contacts/form",
            ContactFormPage.Context(
                form: ContactForm(contact.fields, remindsOfBirthday: reminds),
                genders: try await request.genders().all(),
                editing: id, session: request.pageSession))
    }

    func update(request: Request) async throws -> Response {
        let id = try request.pathID(.contactID)
        let form = try request.content.decode(ContactForm.self)
        return try await request.handleForm {
            let (formDraft, typeErrors) = form.draft()
            let contact = try await request.contacts().update(
                id, typeErrors: typeErrors, birthdayReminder: form.birthdateAddReminder != nil
            ) { stored in
                var draft = formDraft
                // The form has no age field: an age-based birthday the person did not touch keeps that flag.
                if stored.birthdateIsAgeBased, draft.birthdateDay == 1, draft.birthdateMonth == 1,
                    draft.birthdateYear == stored.birthdateYear
                {
                    draft.birthdateIsAgeBased = true
                }
                return draft
            }
            return .redirect(
                to: ContactPaths.contact(contact.id).path, flash: "Changes to \(contact.completeName) were saved.")
        } redraw: { errors in
            try await request.view.render(
                "contacts/form",
                ContactFormPage.Context(
                    form: form, genders: try await request.genders().all(), errors: errors, editing: id,
                    session: request.pageSession))
        }
    }

    func confirmDelete(request: Request) async throws -> View {
        try await request.view.render(
            "contacts/delete", DeleteContactPage.load(request, id: try request.pathID(.contactID)))
    }

    func delete(request: Request) async throws -> Response {
        let service = try request.contacts()
        let contact = try await service.contact(try request.pathID(.contactID))
        try await service.delete(contact.id)
        return request.redirect(to: SitePaths.contacts, flash: "\(contact.completeName) was deleted.")
    }
}
