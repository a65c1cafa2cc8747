import LocifyCore
import Vapor

/// The create / edit form: the values as typed (kept when the form comes back with errors).
struct ContactForm: Content {
    var firstName: String?
    var lastName: String?
    var nickname: String?
    var email: String?
    var description: String?
    var genderID: String?
    var job: String?
    var company: String?
    var birthdateDay: String?
    var birthdateMonth: String?
    var birthdateYear: String?
    var isStarred: String?
    var isArchived: String?
    /// "Remind me": a yearly reminder follows the birthday.
    var birthdateAddReminder: String?

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname, email, description, job, company
        case genderID = "gender_id"
        case birthdateDay = "birthdate_day"
        case birthdateMonth = "birthdate_month"
        case birthdateYear = "birthdate_year"
        case isStarred = "is_starred"
        case isArchived = "is_archived"
        case birthdateAddReminder = "birthdate_add_reminder"
    }

    /// `remindsOfBirthday` ticks "Remind me" when the contact's birthday has its reminder.
    init(_ fields: ContactFields? = nil, remindsOfBirthday: Bool = false) {
        birthdateAddReminder = remindsOfBirthday ? "on" : nil
        firstName = fields?.firstName
        lastName = fields?.lastName
        nickname = fields?.nickname
        description = fields?.description
        genderID = fields?.gender.map { String($0.id) }
        job = fields?.job
        company = fields?.company
        birthdateDay = fields?.birthdate.map { String($0.day) }
        birthdateMonth = fields?.birthdate.map { String($0.month) }
        birthdateYear = fields?.birthdate?.year.map(String.init)
        isStarred = fields?.isStarred == true ? "on" : nil
        isArchived = fields?.isArchived == true ? "on" : nil
    }

    /// The draft to validate, and the fields whose text is not a number.
    func draft() -> (ContactDraft, [FieldError]) {
        var problems: [FieldError] = []
        func number(_ text: String?, _ field: String) -> Int? {
            LooseValue.integer(text, field: field, label: ContactDraft.fieldLabels[field] ?? field, problems: &problems)
        }
        let draft = ContactDraft(
            firstName: firstName, lastName: lastName, nickname: nickname, description: description, email: email,
            birthdateDay: number(birthdateDay, "birthdate_day"),
            birthdateMonth: number(birthdateMonth, "birthdate_month"),
            birthdateYear: number(birthdateYear, "birthdate_year"), genderID: number(genderID, "gender_id"),
            job: job, company: company, isStarred: isStarred != nil, isArchived: isArchived != nil)
        return (draft, problems)
    }
}

/// The create and edit form of a contact.
enum ContactFormPage {
    /// A day as a birthday is typed: day, month (a select) and an optional year, named `prefix` + `day`,
    /// `month`, `year` (the first meeting's fields have no prefix).
    static func dayFields(prefix: String, day: String?, month: String?, year: String?, errors: FieldMessages)
        -> [FormField]
    {
        let months =
            [SelectOption(value: "", label: "Month", isSelected: (month ?? "").isEmpty)]
            + CalendarDate.monthNames.enumerated().map { index, name in
                SelectOption(value: String(index + 1), label: name, isSelected: month == String(index + 1))
            }
        return [
            FormField(prefix + "day", label: "Day", value: day, errors: errors, inputMode: "numeric", size: 3),
            FormField(prefix + "month", label: "Month", control: .select, errors: errors, options: months),
            FormField(
                prefix + "year", label: "Year (optional)", value: year, errors: errors, inputMode: "numeric", size: 5),
        ]
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let actionURL: String
        let cancelURL: String
        let submitLabel: String
        let nameFields: [FormField]
        let birthdayFields: [FormField]
        let birthdayReminderField: FormField
        let otherFields: [FormField]
        let flagFields: [FormField]
        let offline: OfflineForm

        /// `editing` is the contact's id when the form edits one.
        /// `genders` are the account's, for the gender select.
        init(
            form: ContactForm, genders: [Gender], errors: FieldMessages = [:], editing id: Int? = nil,
            session: PageSession
        ) {
            heading =
                id == nil
                ? "New contact" : "Edit \([form.firstName, form.lastName].compactMap { $0 }.joined(separator: " "))"
            layout = LayoutContext(title: heading, section: .contacts, session: session)
            actionURL = id.map { ContactPaths.edit($0).path } ?? SitePaths.contacts.path
            cancelURL = id.map { ContactPaths.contact($0).path } ?? SitePaths.contacts.path
            submitLabel = id == nil ? "Add contact" : "Save changes"
            if let id {
                let name = [form.firstName, form.lastName].compactMap { $0 }.joined(separator: " ")
                offline = OfflineForm(
                    .update, of: .contact, id: id, summary: "Changes to \(name)", then: ContactPaths.contact(id).path)
            } else {
                offline = OfflineForm(.create, of: .contact, summary: "New contact", then: SitePaths.contacts.path)
            }
            func label(_ name: String) -> String { ContactDraft.fieldLabels[name] ?? name }
            var nameFields = [
                FormField(
                    "first_name", label: label("first_name"), value: form.firstName, errors: errors, isRequired: true,
                    maxLength: 255),
                FormField("last_name", label: label("last_name"), value: form.lastName, errors: errors, maxLength: 255),
                FormField("nickname", label: label("nickname"), value: form.nickname, errors: errors, maxLength: 255),
            ]
            // A new contact's e-mail becomes its first Email field; after that e-mails are edited with the
            // other fields on the contact's page.
            if id == nil {
                nameFields.append(
                    FormField(
                        "email", label: label("email"), control: .email, value: form.email, errors: errors,
                        maxLength: 255))
            }
            self.nameFields = nameFields

            birthdayReminderField = FormField(
                "birthdate_add_reminder", label: "Remind me of the birthday every year", control: .checkbox,
                isChecked: form.birthdateAddReminder != nil)
            birthdayFields = ContactFormPage.dayFields(
                prefix: "birthdate_", day: form.birthdateDay, month: form.birthdateMonth, year: form.birthdateYear,
                errors: errors)
            let genders =
                [SelectOption(value: "", label: "Not specified", isSelected: (form.genderID ?? "").isEmpty)]
                + genders.map {
                    SelectOption(value: String($0.id), label: $0.name, isSelected: form.genderID == String($0.id))
                }
            otherFields = [
                FormField("gender_id", label: label("gender_id"), control: .select, errors: errors, options: genders),
                FormField("job", label: label("job"), value: form.job, errors: errors, maxLength: 255),
                FormField("company", label: label("company"), value: form.company, errors: errors, maxLength: 255),
                FormField("description", label: "Notes", control: .textarea, value: form.description, errors: errors),
            ]
            var flags = [
                FormField(
                    "is_starred", label: "Starred (shown first)", control: .checkbox, isChecked: form.isStarred != nil)
            ]
            if id != nil {
                flags.append(
                    FormField(
                        "is_archived", label: "Archived (hidden from the list)", control: .checkbox,
                        isChecked: form.isArchived != nil))
            }
            flagFields = flags
        }
    }
}
