import LocifyCore
import Vapor

/// The contact pages of the web app.
struct ContactsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let contacts = routes.grouped("contacts")
        contacts.get(use: index)
        contacts.post(use: create)
        contacts.get("new", use: new)
        contacts.get(":contactID", use: show)
        contacts.get(":contactID", "edit", use: edit)
        contacts.post(":contactID", "edit", use: update)
        contacts.get(":contactID", "delete", use: confirmDelete)
        contacts.post(":contactID", "delete", use: delete)
    }

    func index(request: Request) async throws -> View {
        try await request.view.render("contacts/index", ContactPages.index(request))
    }

    func show(request: Request) async throws -> View {
        try await request.view.render("contacts/show", ContactPages.detail(request, id: try request.pathID("contactID")))
    }

    func new(request: Request) async throws -> View {
        try await request.view.render("contacts/form", ContactFormPage.make(request, form: ContactForm()))
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(ContactForm.self)
        let (draft, typeErrors) = form.draft()
        do {
            let contact = try await request.contacts().create(draft, typeErrors: typeErrors)
            return request.redirect(to: .contact(contact.id), flash: "\(contact.completeName) was added.")
        } catch AppError.invalid(let failure) {
            return try await request.view.render("contacts/form", ContactFormPage.make(request, form: form, errors: failure.byField))
                .encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    func edit(request: Request) async throws -> View {
        let id = try request.pathID("contactID")
        let contact = try await request.contacts().contact(id)
        return try await request.view.render(
            "contacts/form", ContactFormPage.make(request, form: ContactForm(contact.fields), editing: id))
    }

    func update(request: Request) async throws -> Response {
        let id = try request.pathID("contactID")
        let form = try request.content.decode(ContactForm.self)
        let (formDraft, typeErrors) = form.draft()
        var draft = formDraft
        do {
            let service = try request.contacts()
            let existing = try await service.contact(id)
            // The form has no age field: an age-based birthday the person did not touch keeps that flag.
            if let birthdate = existing.fields.birthdate, birthdate.isAgeBased,
               draft.birthdateDay == 1, draft.birthdateMonth == 1, draft.birthdateYear == birthdate.year {
                draft.birthdateIsAgeBased = true
            }
            let contact = try await service.replace(id, with: draft, typeErrors: typeErrors)
            return request.redirect(to: .contact(contact.id), flash: "Changes to \(contact.completeName) were saved.")
        } catch AppError.invalid(let failure) {
            return try await request.view.render(
                "contacts/form", ContactFormPage.make(request, form: form, errors: failure.byField, editing: id))
                .encodeResponse(status: .unprocessableEntity, for: request)
        }
    }

    func confirmDelete(request: Request) async throws -> View {
        try await request.view.render("contacts/delete", ContactPages.confirmDelete(request, id: try request.pathID("contactID")))
    }

    func delete(request: Request) async throws -> Response {
        let service = try request.contacts()
        let contact = try await service.contact(try request.pathID("contactID"))
        try await service.delete(contact.id)
        return request.redirect(to: .contacts, flash: "\(contact.completeName) was deleted.")
    }
}
