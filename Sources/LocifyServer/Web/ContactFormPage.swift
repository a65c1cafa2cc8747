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
    var birthdateDay: String?
    var birthdateMonth: String?
    var birthdateYear: String?
    var isStarred: String?
    var isArchived: String?

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", lastName = "last_name", nickname, email, description
        case genderID = "gender_id", birthdateDay = "birthdate_day", birthdateMonth = "birthdate_month"
        case birthdateYear = "birthdate_year", isStarred = "is_starred", isArchived = "is_archived"
    }

    init(_ fields: ContactFields? = nil) {
        firstName = fields?.firstName
        lastName = fields?.lastName
        nickname = fields?.nickname
        email = fields?.email
        description = fields?.description
        genderID = fields?.gender.map { String($0.monicaID) }
        birthdateDay = fields?.birthdate.map { String($0.day) }
        birthdateMonth = fields?.birthdate.map { String($0.month) }
        birthdateYear = fields?.birthdate?.year.map(String.init)
        isStarred = fields?.isStarred == true ? "on" : nil
        isArchived = fields?.isArchived == true ? "on" : nil
    }

    /// The draft to validate, or the fields whose text is not a number.
    func draft() -> (ContactDraft, [FieldError]) {
        var problems: [FieldError] = []
        func number(_ text: String?, field: String, label: String) -> Int? {
            guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
            guard let value = Int(trimmed) else {
                problems.append(FieldError(field: field, message: "\(label) must be a number."))
                return nil
            }
            return value
        }
        let draft = ContactDraft(
            firstName: firstName, lastName: lastName, nickname: nickname, description: description, email: email,
            birthdateDay: number(birthdateDay, field: "birthdate_day", label: "Birthday day"),
            birthdateMonth: number(birthdateMonth, field: "birthdate_month", label: "Birthday month"),
            birthdateYear: number(birthdateYear, field: "birthdate_year", label: "Birth year"),
            genderID: number(genderID, field: "gender_id", label: "Gender"),
            isStarred: isStarred != nil, isArchived: isArchived != nil)
        return (draft, problems)
    }
}

struct ContactFormPage: Encodable {
    let layout: LayoutContext
    let heading: String
    let actionURL: String
    let cancelURL: String
    let submitLabel: String
    let values: ContactForm
    let errors: [String: String]
    let genders: [SelectOption]
    let months: [SelectOption]
    let isStarred: Bool
    let isArchived: Bool
    let isEditing: Bool

    static func make(
        _ request: Request, form: ContactForm, errors: [String: String] = [:], editing id: Int? = nil
    ) -> ContactFormPage {
        let heading = id == nil ? "New contact" : "Edit \([form.firstName, form.lastName].compactMap { $0 }.joined(separator: " "))"
        let monthNames = DateFormatter().monthSymbols
        return ContactFormPage(
            layout: LayoutContext(request: request, title: heading, section: .contacts),
            heading: heading,
            actionURL: id.map { SiteURL.editContact($0).path } ?? SiteURL.contacts.path,
            cancelURL: id.map { SiteURL.contact($0).path } ?? SiteURL.contacts.path,
            submitLabel: id == nil ? "Add contact" : "Save changes",
            values: form, errors: errors,
            genders: [SelectOption(value: "", label: "Not specified", isSelected: (form.genderID ?? "").isEmpty)]
                + Gender.allCases.map {
                    SelectOption(value: String($0.monicaID), label: $0.displayName, isSelected: form.genderID == String($0.monicaID))
                },
            months: [SelectOption(value: "", label: "Month", isSelected: (form.birthdateMonth ?? "").isEmpty)]
                + monthNames.enumerated().map { index, name in
                    SelectOption(value: String(index + 1), label: name, isSelected: form.birthdateMonth == String(index + 1))
                },
            isStarred: form.isStarred != nil, isArchived: form.isArchived != nil, isEditing: id != nil)
    }
}
