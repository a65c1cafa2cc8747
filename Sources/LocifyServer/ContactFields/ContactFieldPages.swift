import LocifyCore
import Vapor

/// The contact page's phone numbers, e-mails and accounts: each with its kind and labels, its value a
/// link to call, write or open it; edit and delete in place, and a form to add one.
struct ContactFieldsSection: Encodable {
    struct Item: Encodable {
        let id: Int
        let kind: String
        let value: String
        /// `tel:`, `mailto:` or the network's page; nil when the kind has no protocol.
        let link: String?
        /// The labels as shown ("Mobile, Desk"), nil without any.
        let labels: String?
        /// The same, for the edit form's field.
        let labelsText: String
        let kindOptions: [SelectOption]
        let editURL: String
        let deleteURL: String
        let error: String?
    }

    let items: [Item]
    let addURL: String
    let kindOptions: [SelectOption]
    let labelSuggestions: [String]
    let error: String?
    let typed: String?
    let typedLabels: String?

    /// `fields` are the contact's, `kinds` the account's; `problem` is a refused add or edit.
    init(contactID: Int, fields: [ContactField], kinds: [ContactFieldType], problem: ContactSectionProblem?) {
        let names = Dictionary(uniqueKeysWithValues: kinds.map { ($0.id, $0) })
        func options(selected: Int?) -> [SelectOption] {
            kinds.map { SelectOption(value: String($0.id), label: $0.name, isSelected: $0.id == selected) }
        }
        let fieldProblem = problem?.section == .field ? problem : nil
        items = fields.map { field in
            let kind = names[field.typeID]
            let labels = field.labels.map(\.label.label).joined(separator: ", ")
            return Item(
                id: field.id, kind: kind?.name ?? "Field", value: field.data, link: kind?.link(for: field.data),
                labels: labels.isEmpty ? nil : labels, labelsText: labels,
                kindOptions: options(selected: field.typeID), editURL: SiteURL.contactField(field.id).path,
                deleteURL: SiteURL.deleteContactField(field.id).path,
                error: fieldProblem?.itemID == field.id ? fieldProblem?.message : nil)
        }
        addURL = SiteURL.contactFields(contactID).path
        let isNew = fieldProblem != nil && fieldProblem?.itemID == nil
        kindOptions = options(
            selected: (isNew ? fieldProblem?.kindID : nil) ?? kinds.first(where: \.isPhone)?.id ?? kinds.first?.id)
        labelSuggestions = ContactFieldLabel.standard.values.sorted()
        error = isNew ? fieldProblem?.message : nil
        typed = isNew ? fieldProblem?.typed : nil
        typedLabels = isNew ? fieldProblem?.typedLabels : nil
    }
}
