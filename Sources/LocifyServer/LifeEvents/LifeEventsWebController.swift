import LocifyCore
import Vapor

/// The contact page's life events: add one (perhaps with a yearly reminder), change one, delete one. All work
/// without scripts and go back to the contact's page; a refused event draws the page again with the
/// problem beside the form.
struct LifeEventsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(LifeEventPaths.contactLifeEvents, use: addLifeEvent)
        routes.post(LifeEventPaths.lifeEvent, use: editLifeEvent)
        routes.post(LifeEventPaths.delete, use: deleteLifeEvent)
    }

    struct LifeEventForm: Content {
        var typeID: String?
        var happenedAt: String?
        var name: String?
        var note: String?
        var hasReminder: String?

        enum CodingKeys: String, CodingKey {
            case typeID = "life_event_type_id"
            case happenedAt = "happened_at"
            case name, note
            case hasReminder = "has_reminder"
        }

        var typed: [String: String?] {
            [
                "life_event_type_id": typeID, "happened_at": happenedAt, "name": name, "note": note,
                "has_reminder": hasReminder,
            ]
        }

        var draft: LifeEventDraft {
            LifeEventDraft(typeID: typeID.flatMap(LooseValue.integer), happenedAt: happenedAt, name: name, note: note)
        }
    }

    func addLifeEvent(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(LifeEventForm.self)
        return try await request.handleContactForm(.lifeEvent, contact: contactID, typed: form.typed) {
            _ = try await request.lifeEvents().create(
                contactID: contactID, form.draft, yearlyReminder: form.hasReminder != nil)
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#life-events", flash: "The life event was saved.")
        }
    }

    func editLifeEvent(request: Request) async throws -> Response {
        let lifeEvents = try request.lifeEvents()
        let event = try await lifeEvents.lifeEvent(try request.pathID(.lifeEventID))
        let form = try request.content.decode(LifeEventForm.self)
        return try await request.handleContactForm(
            .lifeEvent, contact: event.contactID, item: event.id, typed: form.typed
        ) {
            _ = try await lifeEvents.update(event.id) { _ in form.draft }
            return .redirect(
                to: ContactPaths.contact(event.contactID).path + "#life-event-\(event.id)",
                flash: "The life event was saved.")
        }
    }

    func deleteLifeEvent(request: Request) async throws -> Response {
        let event = try await request.lifeEvents().lifeEvent(try request.pathID(.lifeEventID))
        try await request.lifeEvents().delete(event.id)
        return request.redirect(
            to: ContactPaths.contact(event.contactID).path + "#life-events", flash: "The life event was deleted.")
    }
}
