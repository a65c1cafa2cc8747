import LocifyCore
import Vapor

extension FormName {
    static let contactField = FormName("contact-field")
    static let fieldKind = FormName("field-kind")
}

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
        let editURL: String
        let deleteURL: String
        /// The edit form's fields, open with the problem when an edit was refused.
        let isEditing: Bool
        let kindField: FormField
        let dataField: FormField
        let labelsField: FormField
    }

    let items: [Item]
    let addURL: String
    let kindField: FormField
    let dataField: FormField
    let labelsField: FormField

    /// `fields` are the contact's, `kinds` the account's; `problem` is a refused add or edit.
    init(contactID: Int, fields: [ContactField], kinds: [ContactFieldType], problem: FormProblem?) {
        let names = Dictionary(uniqueKeysWithValues: kinds.map { ($0.id, $0) })
        func options(selected: String?) -> [SelectOption] {
            kinds.map { SelectOption(value: String($0.id), label: $0.name, isSelected: String($0.id) == selected) }
        }
        let labelSuggestions = ContactFieldLabel.standard.values.sorted()
        /// The three fields of the form for `itemID` (nil: the new field's), as stored or as refused.
        func formFields(
            itemID: Int?, kindID: Int?, data: String?, labels: String?, dataLabel: String, prefix: String
        ) -> (kind: FormField, data: FormField, labels: FormField) {
            func typed(_ name: String) -> String? { problem?.typed(name, in: .contactField, item: itemID) }
            let refused = problem?.message(for: .contactField, item: itemID)
            let chosenKind = refused == nil ? kindID.map(String.init) : typed("contact_field_type_id")
            return (
                FormField(
                    "contact_field_type_id", label: "Kind", control: .select, options: options(selected: chosenKind)
                ).identified(as: prefix + "-kind"),
                FormField(
                    "data", label: dataLabel, value: refused == nil ? data : typed("data"), error: refused,
                    isRequired: itemID != nil, maxLength: 255
                ).identified(as: prefix + "-data"),
                FormField(
                    "labels", label: itemID == nil ? "Label (optional)" : "Labels",
                    value: refused == nil ? labels : typed("labels"),
                    hint: itemID == nil ? "Mobile, Home, Work… or your own; separate several with commas." : nil,
                    maxLength: 1000, suggestions: labelSuggestions
                ).identified(as: prefix + "-labels")
            )
        }
        items = fields.map { field in
            let kind = names[field.typeID]
            let labels = field.labels.map(\.label.label).joined(separator: ", ")
            let form = formFields(
                itemID: field.id, kindID: field.typeID, data: field.data, labels: labels, dataLabel: "Value",
                prefix: "field-\(field.id)")
            return Item(
                id: field.id, kind: kind?.name ?? "Field", value: field.data, link: kind?.link(for: field.data),
                labels: labels.isEmpty ? nil : labels, editURL: ContactFieldPaths.field(field.id).path,
                deleteURL: ContactFieldPaths.deleteField(field.id).path,
                isEditing: problem?.message(for: .contactField, item: field.id) != nil,
                kindField: form.kind, dataField: form.data, labelsField: form.labels)
        }
        addURL = ContactFieldPaths.contactFields(contactID).path
        let newForm = formFields(
            itemID: nil, kindID: kinds.first(where: \.isPhone)?.id ?? kinds.first?.id, data: nil, labels: nil,
            dataLabel: "Number, address or account", prefix: "new-field")
        (kindField, dataField, labelsField) = (newForm.kind, newForm.data, newForm.labels)
    }
}
