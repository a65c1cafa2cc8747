import LocifyCore
import Vapor

/// The contact page's life events: add one (perhaps with a yearly reminder), delete one. Both work
/// without scripts and go back to the contact's page; a refused event draws the page again with the
/// problem beside the form.
struct LifeEventsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(LifeEventPaths.contactLifeEvents, use: addLifeEvent)
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
    }

    func addLifeEvent(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(LifeEventForm.self)
        return try await request.handleContactForm(
            .lifeEvent, contact: contactID,
            typed: [
                "life_event_type_id": form.typeID, "happened_at": form.happenedAt, "name": form.name,
                "note": form.note, "has_reminder": form.hasReminder,
            ]
        ) {
            _ = try await request.lifeEvents().create(
                contactID: contactID,
                LifeEventDraft(
                    typeID: form.typeID.flatMap(LooseValue.integer),
                    happenedAt: form.happenedAt, name: form.name, note: form.note),
                yearlyReminder: form.hasReminder != nil)
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#life-events", flash: "The life event was saved.")
        }
    }

    func deleteLifeEvent(request: Request) async throws -> Response {
        let event = try await request.lifeEvents().lifeEvent(try request.pathID(.lifeEventID))
        try await request.lifeEvents().delete(event.id)
        return request.redirect(
            to: ContactPaths.contact(event.contactID).path + "#life-events", flash: "The life event was deleted.")
    }
}
