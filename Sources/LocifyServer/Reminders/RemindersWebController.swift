import LocifyCore
import Vapor

/// The Reminders page (the timeline) and the reminder forms, reached from the timeline and from a
/// contact's page; each form goes back where it came from.
struct RemindersWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ReminderPaths.list, use: index)
        routes.post(ReminderPaths.list, use: create)
        routes.get(ReminderPaths.new, use: new)
        routes.get(ReminderPaths.edit, use: edit)
        routes.post(ReminderPaths.edit, use: update)
        routes.get(ReminderPaths.delete, use: confirmDelete)
        routes.post(ReminderPaths.delete, use: delete)
        routes.post(ReminderPaths.done, use: done)
    }

    func index(request: Request) async throws -> View {
        async let weekStart = request.notificationSettings().preferences().weekStartsOn
        let reminders = try await request.reminders().outlines()
        let contacts = try await request.contacts().contacts(reminders.map(\.contactID))
        let timeline = Timeline.of(reminders, today: request.today, weekStartsOn: try await weekStart)
        return try await request.view.render(
            "reminders/index",
            RemindersPage.Context(
                timeline: timeline, reminders: reminders, contacts: contacts, today: request.today,
                showsAll: request.query[String.self, at: "all"] == "1", session: request.pageSession,
                pictureURL: request.pictureURL))
    }

    func new(request: Request) async throws -> View {
        var form = ReminderForm(today: request.today)
        if let contactID = request.query[Int.self, at: "contact"] {
            form.contactID = String(try await request.contacts().contact(contactID).id)
        }
        form.returnTo = SitePath.localPath(request.query[String.self, at: "return_to"])
        return try await render(request, form: form)
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(ReminderForm.self)
        return try await request.handleForm {
            let (contactID, typeErrors) = form.contact()
            let reminder = try await request.reminders().create(
                contactID: contactID, form.draft, typeErrors: typeErrors)
            return .redirect(
                to: form.destination,
                flash: "The reminder “\(reminder.fields.title)” was added.")
        } redraw: { errors in
            try await render(request, form: form, errors: errors)
        }
    }

    func edit(request: Request) async throws -> Response {
        let reminder = try await request.reminders().reminder(try request.pathID(.reminderID))
        if let redirect = Self.birthdayRedirect(reminder, request) { return redirect }
        var form = ReminderForm(reminder)
        form.returnTo = SitePath.localPath(request.query[String.self, at: "return_to"])
        return try await render(request, form: form, editing: reminder).encodeResponse(for: request)
    }

    /// A birthday reminder follows the birthday: it is changed by changing the birthday.
    private static func birthdayRedirect(_ reminder: Reminder, _ request: Request) -> Response? {
        guard !reminder.isDelible else { return nil }
        return request.redirect(
            to: ContactPaths.edit(reminder.contactID),
            flash:
                "This reminder follows the birthday: change or remove the birthday here, or untick “Remind me of the birthday every year”."
        )
    }

    func update(request: Request) async throws -> Response {
        let id = try request.pathID(.reminderID)
        let stored = try await request.reminders().reminder(id)
        let form = try request.content.decode(ReminderForm.self)
        if let redirect = Self.birthdayRedirect(stored, request) { return redirect }
        return try await request.handleForm {
            let (contactID, typeErrors) = form.contact()
            let reminder = try await request.reminders().update(id, contactID: contactID, typeErrors: typeErrors) { _ in
                form.draft
            }
            return .redirect(
                to: form.destination,
                flash: "The reminder “\(reminder.fields.title)” was saved.")
        } redraw: { errors in
            try await render(request, form: form, errors: errors, editing: stored)
        }
    }

    func confirmDelete(request: Request) async throws -> View {
        let reminder = try await request.reminders().reminder(try request.pathID(.reminderID))
        let contact = try await request.contacts().contact(reminder.contactID)
        return try await request.view.render(
            "reminders/delete",
            DeleteReminderPage.Context(
                reminder: reminder, contact: contact,
                returnTo: SitePath.localPath(request.query[String.self, at: "return_to"]),
                session: request.pageSession))
    }

    struct ReturnForm: Content {
        var returnTo: String?

        enum CodingKeys: String, CodingKey {
            case returnTo = "return_to"
        }
    }

    func delete(request: Request) async throws -> Response {
        let id = try request.pathID(.reminderID)
        let reminder = try await request.reminders().reminder(id)
        let back = SitePath.localPath(try request.content.decode(ReturnForm.self).returnTo) ?? SitePaths.reminders.path
        return try await request.handleAction(returningTo: back) {
            try await request.reminders().delete(id)
            return .redirect(to: back, flash: "The reminder “\(reminder.fields.title)” was deleted.")
        }
    }

    func done(request: Request) async throws -> Response {
        let back = SitePath.localPath(try request.content.decode(ReturnForm.self).returnTo) ?? SitePaths.reminders.path
        return try await request.handleAction(returningTo: back) {
            let reminder = try await request.reminders().markDone(try request.pathID(.reminderID))
            return .redirect(to: back, flash: "“\(reminder.fields.title)” is done.")
        }
    }

    private func render(
        _ request: Request, form: ReminderForm, errors: FieldMessages = [:], editing: Reminder? = nil
    ) async throws -> View {
        // Coming from a contact's page, a new reminder is that contact's; only from the timeline, or when
        // editing, is the contact chosen from the list, which is read only then.
        var fixedContact: Contact?
        if editing == nil, form.destination.hasPrefix(SitePaths.contacts.path + "/"),
            let id = form.contactID.flatMap({ Int($0) })
        {
            fixedContact = try await request.contacts().contact(id)
        }
        let contacts =
            fixedContact != nil
            ? []
            : try await request.contacts().allByName()
        return try await request.view.render(
            "reminders/form",
            ReminderFormPage.Context(
                form: form, errors: errors, fixedContact: fixedContact, contacts: contacts, editing: editing,
                session: request.pageSession))
    }
}
