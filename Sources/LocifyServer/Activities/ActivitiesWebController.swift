import LocifyCore
import Vapor

/// Activities on the web: added on a page of their own with one contact (the API takes several), listed
/// on the journal page, deleted from there. Both work without scripts.
struct ActivitiesWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ActivityPaths.new, use: newActivity)
        routes.post(ActivityPaths.list, use: addActivity)
        routes.post(ActivityPaths.delete, use: deleteActivity)
    }

    struct ActivityForm: Content {
        var summary: String?
        var happenedAt: String?
        var contactID: String?
        var typeID: String?
        var description: String?

        enum CodingKeys: String, CodingKey {
            case summary
            case happenedAt = "happened_at"
            case contactID = "contacts"
            case typeID = "activity_type_id"
            case description
        }
    }

    func newActivity(request: Request) async throws -> View {
        try await request.view.render("activities/new", try await NewActivityPage.context(request))
    }

    func addActivity(request: Request) async throws -> Response {
        let form = try request.content.decode(ActivityForm.self)
        let contact = form.contactID.flatMap(LooseValue.integer)
        return try await request.handleForm {
            _ = try await request.activities().create(
                ActivityDraft(
                    summary: form.summary, description: form.description, happenedAt: form.happenedAt,
                    typeID: form.typeID.flatMap(LooseValue.integer),
                    attendeeIDs: contact.map { [$0] } ?? []))
            return .redirect(to: SitePaths.journal.path + "#activities", flash: "The activity was saved.")
        } redraw: { errors in
            try await request.view.render(
                "activities/new",
                try await NewActivityPage.context(
                    request,
                    typed: .init(
                        summary: form.summary, happenedAt: form.happenedAt, contactID: form.contactID,
                        typeID: form.typeID, description: form.description), errors: errors))
        }
    }

    func deleteActivity(request: Request) async throws -> Response {
        let activity = try await request.activities().activity(try request.pathID(.activityID))
        try await request.activities().delete(activity.id)
        return request.redirect(to: SitePaths.journal.path + "#activities", flash: "The activity was deleted.")
    }
}
