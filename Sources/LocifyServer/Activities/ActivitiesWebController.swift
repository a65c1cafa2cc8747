import LocifyCore
import Vapor

/// Activities on the web: added and changed on a page of their own (with one contact or several), listed
/// on the journal page, deleted from there. All work without scripts.
struct ActivitiesWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ActivityPaths.new, use: newActivity)
        routes.post(ActivityPaths.list, use: addActivity)
        routes.get(ActivityPaths.edit, use: editActivity)
        routes.post(ActivityPaths.activity, use: updateActivity)
        routes.post(ActivityPaths.delete, use: deleteActivity)
    }

    struct ActivityForm: Content {
        var summary: String?
        var happenedAt: String?
        /// A select of several choices sends its field once per choice.
        var contactIDs: [String]?
        var typeID: String?
        var description: String?

        enum CodingKeys: String, CodingKey {
            case summary
            case happenedAt = "happened_at"
            case contactIDs = "contacts"
            case typeID = "activity_type_id"
            case description
        }

        var typed: ActivityFormPage.Typed {
            .init(
                summary: summary, happenedAt: happenedAt, contactIDs: contactIDs ?? [], typeID: typeID,
                description: description)
        }

        /// The activity as typed; a contact that is no number is a problem, reported with the draft's own.
        func draft() -> (ActivityDraft, [FieldError]) {
            let ids = (contactIDs ?? []).filter { !$0.isEmpty }
            let attendees = ids.compactMap(LooseValue.integer)
            let problems =
                attendees.count == ids.count
                ? [] : [FieldError(field: "contacts", message: "Choose the contacts from the list.")]
            return (
                ActivityDraft(
                    summary: summary, description: description, happenedAt: happenedAt,
                    typeID: typeID.flatMap(LooseValue.integer), attendeeIDs: attendees), problems
            )
        }
    }

    func newActivity(request: Request) async throws -> View {
        try await request.view.render("activities/new", try await ActivityFormPage.context(request))
    }

    func addActivity(request: Request) async throws -> Response {
        let form = try request.content.decode(ActivityForm.self)
        return try await request.handleForm {
            let (draft, problems) = form.draft()
            let activity = try await request.activities().create(draft, typeErrors: problems)
            return .redirect(
                to: SitePaths.journal.path + "#activity-\(activity.id)", flash: "The activity was saved.")
        } redraw: { errors in
            try await request.view.render(
                "activities/new", try await ActivityFormPage.context(request, typed: form.typed, errors: errors))
        }
    }

    func editActivity(request: Request) async throws -> View {
        let activity = try await request.activities().activity(try request.pathID(.activityID))
        return try await request.view.render(
            "activities/new",
            try await ActivityFormPage.context(request, editing: activity.id, typed: .init(activity.fields)))
    }

    /// The form's fields replace the activity's (its emotions, which the form does not show, stay).
    func updateActivity(request: Request) async throws -> Response {
        let activities = try request.activities()
        let activity = try await activities.activity(try request.pathID(.activityID))
        let form = try request.content.decode(ActivityForm.self)
        return try await request.handleForm {
            let (typed, problems) = form.draft()
            _ = try await activities.update(activity.id, typeErrors: problems) { stored in
                var changed = typed
                changed.emotionIDs = stored.emotionIDs
                return changed
            }
            return .redirect(
                to: SitePaths.journal.path + "#activity-\(activity.id)", flash: "The activity was saved.")
        } redraw: { errors in
            try await request.view.render(
                "activities/new",
                try await ActivityFormPage.context(request, editing: activity.id, typed: form.typed, errors: errors))
        }
    }

    func deleteActivity(request: Request) async throws -> Response {
        let activity = try await request.activities().activity(try request.pathID(.activityID))
        try await request.activities().delete(activity.id)
        return request.redirect(to: SitePaths.journal.path + "#activities", flash: "The activity was deleted.")
    }
}
