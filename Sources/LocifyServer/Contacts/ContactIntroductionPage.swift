import LocifyCore
import Vapor

/// The "How you met" form: the story, where and when (with its yearly reminder), whom through, and the
/// contact's food preferences. Values as typed, kept when the form comes back with errors.
struct ContactIntroductionForm: Content {
    var story: String?
    var place: String?
    var throughContactID: String?
    var day: String?
    var month: String?
    var year: String?
    var addReminder: String?
    var foodPreferences: String?

    enum CodingKeys: String, CodingKey {
        case story = "general_information"
        case place = "where"
        case throughContactID = "met_through_contact_id"
        case day, month, year
        case addReminder = "add_reminder"
        case foodPreferences = "food_preferences"
    }

    init(_ contact: Contact, remindsOfIt: Bool) {
        let introduction = contact.introduction
        story = introduction.story
        place = introduction.place
        throughContactID = introduction.throughContactID.map(String.init)
        // An age-based day is a year only; the form asks for a day and a month, so it shows none.
        let exact = introduction.firstMet.flatMap { $0.isAgeBased ? nil : $0 }
        day = exact.map { String($0.day) }
        month = exact.map { String($0.month) }
        year = exact?.year.map(String.init)
        addReminder = remindsOfIt ? "on" : nil
        foodPreferences = contact.foodPreferences
    }

    /// The draft to validate, and the fields whose text is not a number.
    func draft() -> (ContactIntroductionDraft, [FieldError]) {
        var problems: [FieldError] = []
        func number(_ text: String?, _ field: String) -> Int? {
            LooseValue.integer(
                text, field: field, label: ContactIntroductionDraft.fieldLabels[field] ?? field, problems: &problems)
        }
        let draft = ContactIntroductionDraft(
            throughContactID: number(throughContactID, "met_through_contact_id"), story: story, place: place,
            day: number(day, "day"), month: number(month, "month"), year: number(year, "year"))
        return (draft, problems)
    }
}

/// `GET /contacts/{id}/introduction`.
enum ContactIntroductionPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let actionURL: String
        let cancelURL: String
        let storyField: FormField
        let placeField: FormField
        let throughField: FormField
        let dayFields: [FormField]
        let reminderField: FormField
        let foodField: FormField
    }

    static func context(
        _ request: Request, contact: Contact, form: ContactIntroductionForm, errors: FieldMessages = [:]
    ) async throws -> Context {
        let others = try await request.contacts().allByName().filter { $0.id != contact.id }
        let through = form.throughContactID ?? ""
        let heading = "How you met \(contact.completeName)"
        return Context(
            layout: LayoutContext(title: heading, section: .contacts, session: request.pageSession),
            heading: heading, actionURL: ContactPaths.introduction(contact.id).path,
            cancelURL: ContactPaths.contact(contact.id).path,
            storyField: FormField(
                "general_information", label: "How you met", control: .textarea, value: form.story, errors: errors,
                maxLength: ContactIntroductionDraft.maximumStoryLength),
            placeField: FormField(
                "where", label: "Where", value: form.place, errors: errors,
                maxLength: ContactIntroductionDraft.maximumPlaceLength),
            throughField: FormField(
                "met_through_contact_id", label: "Through", control: .select, errors: errors,
                options: [SelectOption(value: "", label: "Nobody", isSelected: through.isEmpty)]
                    + others.map {
                        SelectOption(value: String($0.id), label: $0.completeName, isSelected: String($0.id) == through)
                    },
                filterPlaceholder: "Type to find a contact"),
            dayFields: ContactFormPage.dayFields(
                prefix: "", day: form.day, month: form.month, year: form.year, errors: errors),
            reminderField: FormField(
                "add_reminder", label: "Remind me of the day every year", control: .checkbox,
                isChecked: form.addReminder != nil),
            foodField: FormField(
                "food_preferences", label: "Food preferences", control: .textarea, value: form.foodPreferences,
                errors: errors, hint: "What \(contact.fields.firstName) eats, or does not.",
                maxLength: Contact.maximumFoodPreferencesLength))
    }
}

/// How you met a contact and what they eat, on a page of their own the contact page links to.
struct ContactIntroductionWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ContactPaths.introduction, use: edit)
        routes.post(ContactPaths.introduction, use: update)
    }

    func edit(request: Request) async throws -> View {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        let reminds = try await request.reminders().firstMeetingReminder(of: contact.id) != nil
        return try await request.view.render(
            "contacts/introduction",
            try await ContactIntroductionPage.context(
                request, contact: contact, form: ContactIntroductionForm(contact, remindsOfIt: reminds)))
    }

    func update(request: Request) async throws -> Response {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        let form = try request.content.decode(ContactIntroductionForm.self)
        return try await request.handleForm {
            let (draft, typeErrors) = form.draft()
            _ = try await request.contacts().updateIntroduction(
                contact.id, draft, foodPreferences: form.foodPreferences, typeErrors: typeErrors,
                reminder: form.addReminder != nil)
            return .redirect(to: ContactPaths.contact(contact.id).path, flash: "How you met was saved.")
        } redraw: { errors in
            try await request.view.render(
                "contacts/introduction",
                try await ContactIntroductionPage.context(request, contact: contact, form: form, errors: errors))
        }
    }
}
